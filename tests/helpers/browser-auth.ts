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
