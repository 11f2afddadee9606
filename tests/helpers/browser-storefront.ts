/**
 * What the storefront journeys (storefront, storefront-product and storefront-landing specs, on the
 * seeded demo catalogue) read and find: the product list as the API gives it, the grid's titles
 * and cards, and the landing page opened from the browser.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Product, ProductPage } from '#common/schemas/product';
import type { BrowserSuite } from './browser';

/** The first page of the product list, as the grid shows it first. */
export async function firstPage(shop: BrowserSuite, query = ''): Promise<ProductPage> {
  const res = await fetch(shop.url(`/api/products${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as ProductPage;
}

export async function products(shop: BrowserSuite, query = ''): Promise<Product[]> {
  return (await firstPage(shop, query)).products;
}

export async function gridTitles(page: Page): Promise<string[]> {
  const grid = page.getByRole('list', { name: 'Products' });
  await grid.waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"] ul[aria-label="Products"]'));
  return grid.getByRole('heading', { level: 3 }).allTextContents();
}

/**
 * Opens the landing page by a link from /about, so its market and product requests come from the
 * browser (where page.route answers them) rather than from the server's render of `/`.
 */
export async function openLandingInBrowser(page: Page) {
  await page.goto('/about');
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await page.locator('header a[href="/"]').first().click();
  await page.waitForURL((url) => url.pathname === '/');
}

export function card(page: Page, title: string) {
  return page
    .getByRole('list', { name: 'Products' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: title, exact: true }) });
}
