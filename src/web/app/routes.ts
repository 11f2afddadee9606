import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

/**
 * The route table: exactly the pages of src/common/routes.ts and its form-post paths (sign-out,
 * consent; routes.test.ts checks they agree), each a route module under ./routes, plus a 404 page
 * per area. Storefront
 * pages render on the server; the back office renders in the browser behind its sign-in
 * (routes/admin/layout.tsx).
 */
export default [
  layout('routes/storefront/layout.tsx', [
    index('routes/storefront/home.tsx', { id: 'storefront/home' }),
    // The landing page with that product's modal open: the same module, so the page stays mounted
    // (scroll, filters, loaded grid) when a card opens or closes.
    route('products/:id', 'routes/storefront/home.tsx', { id: 'storefront/product' }),
    route('about', 'routes/storefront/about.tsx'),
    route('faq', 'routes/storefront/faq.tsx'),
    route('shipping', 'routes/storefront/shipping.tsx'),
    route('terms', 'routes/storefront/terms.tsx'),
    route('privacy', 'routes/storefront/privacy.tsx'),
    route('contact', 'routes/storefront/contact.tsx'),
    route('how-to-buy', 'routes/storefront/how-to-buy.tsx'),
    route('login', 'routes/storefront/login.tsx'),
    route('forgot-password', 'routes/storefront/forgot-password.tsx'),
    route('reset-password', 'routes/storefront/reset-password.tsx'),
    route('verify-email', 'routes/storefront/verify-email.tsx'),
    route('confirm-email', 'routes/storefront/confirm-email.tsx'),
    route('success', 'routes/storefront/success.tsx'),
    route('orders/:id', 'routes/storefront/guest-order.tsx'),
    route('explorer/tx/:signature', 'routes/storefront/explorer-tx.tsx'),
    route('sign-out', 'routes/sign-out.tsx'),
    route('*', 'routes/storefront/not-found.tsx'),
  ]),
  route('consent', 'routes/consent.tsx'),
  route('profile', 'routes/account/layout.tsx', [
    index('routes/account/index.tsx'),
    route('orders', 'routes/account/orders.tsx'),
    route('messages', 'routes/account/messages.tsx'),
    route('wallet', 'routes/account/wallet.tsx'),
    route('settings', 'routes/account/settings.tsx'),
    route('*', 'routes/account/not-found.tsx'),
  ]),
  route('admin/login', 'routes/admin/login.tsx'),
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/dashboard.tsx'),
    route('products', 'routes/admin/products.tsx'),
    route('products/add', 'routes/admin/product-add.tsx'),
    route('products/edit/:id', 'routes/admin/product-edit.tsx'),
    route('orders', 'routes/admin/orders.tsx'),
    route('customers', 'routes/admin/customers.tsx'),
    route('messages', 'routes/admin/messages.tsx'),
    route('analytics', 'routes/admin/analytics.tsx'),
    route('audit', 'routes/admin/audit.tsx'),
    route('airdrops', 'routes/admin/airdrops.tsx'),
    route('settings', 'routes/admin/settings.tsx'),
    route('outbox', 'routes/admin/outbox.tsx'),
    route('*', 'routes/admin/not-found.tsx'),
  ]),
] satisfies RouteConfig;
