// /products/:id is the landing page with that product's modal open. Re-exporting the same
// component keeps the page mounted (scroll, filters, loaded grid) when a card opens or closes.
export { Component, handle } from './home';
