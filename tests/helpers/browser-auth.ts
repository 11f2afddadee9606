import type { Page } from 'playwright-core';
import type { ShopServer } from './browser';

/**
 * Signs the server's admin in and opens `path` (by default the products list, where the sign-in
 * form leads). The session comes from the sign-in API into the page's own context (`page.request`
 * shares the context's cookies), so a test that needs an admin does not load and fill /admin/login
 * first; app-shell.spec.ts tests the sign-in form itself.
 */
export async function signInAsAdmin(page: Page, server: ShopServer, path = '/admin/products'): Promise<void> {
  const res = await page.request.post(`${server.baseUrl}/api/auth/sign-in/email`, {
    data: { email: server.admin.email, password: server.admin.password },
    headers: { origin: server.baseUrl },
  });
  if (!res.ok()) throw new Error(`The admin's sign-in answered ${res.status()}: ${await res.text()}`);
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/** The password of every customer `signUpCustomer` makes. */
export const CUSTOMER_PASSWORD = 'harbor-lights-71';

let customers = 0;

/**
 * Signs a new customer up through the sign-up API, into the page's own context, and returns their
 * email. The page stays where it was: the test opens the account page it needs, instead of loading
 * and filling /login and waiting for the orders page first (app-shell.spec.ts tests the form).
 */
export async function signUpCustomer(page: Page, server: ShopServer, prefix = 'customer'): Promise<string> {
  const email = `${prefix}-${Date.now().toString(36)}-${customers++}@example.com`;
  const res = await page.request.post(`${server.baseUrl}/api/auth/sign-up/email`, {
    data: { email, password: CUSTOMER_PASSWORD },
    headers: { origin: server.baseUrl },
  });
  if (!res.ok()) throw new Error(`The sign-up of ${email} answered ${res.status()}: ${await res.text()}`);
  return email;
}
