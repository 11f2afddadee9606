import type { Page } from 'playwright-core';
import type { ShopServer } from './browser';

/**
 * POSTs `data` to one of the shop's API routes from the page's own context, as the shop's pages do
 * (same origin; `page.request` shares the context's cookies, so a session it answers with is the
 * page's). Fails on an answer that is not 2xx.
 */
async function postFromPage(page: Page, server: ShopServer, route: string, data: object): Promise<void> {
  const res = await page.request.post(`${server.baseUrl}${route}`, {
    data,
    headers: { origin: server.baseUrl },
  });
  if (!res.ok()) throw new Error(`POST ${route} answered ${res.status()}: ${await res.text()}`);
}

/**
 * Signs the server's admin in and opens `path` (by default the products list, where the sign-in
 * form leads). The session comes from the sign-in API, so a test that needs an admin does not load
 * and fill /admin/login first; app-shell.spec.ts tests the sign-in form itself.
 */
export async function signInAsAdmin(page: Page, server: ShopServer, path = '/admin/products'): Promise<void> {
  await postFromPage(page, server, '/api/auth/sign-in/email', server.admin);
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/** The password of every customer `signUpCustomer` makes. */
export const CUSTOMER_PASSWORD = 'harbor-lights-71';

let customers = 0;

/**
 * Signs a new customer up through the sign-up API and in (sign-up itself never signs in), into the
 * page's own context, and returns their email. The page stays where it was: the test opens the
 * account page it needs, instead of loading and filling /login and waiting for the orders page
 * first (app-shell.spec.ts tests the form).
 */
export async function signUpCustomer(page: Page, server: ShopServer, prefix = 'customer'): Promise<string> {
  const email = `${prefix}-${Date.now().toString(36)}-${customers++}@example.com`;
  await postFromPage(page, server, '/api/auth/sign-up/email', { email, password: CUSTOMER_PASSWORD });
  await postFromPage(page, server, '/api/auth/sign-in/email', { email, password: CUSTOMER_PASSWORD });
  return email;
}
