import type { Page } from 'playwright-core';

/** Signs the admin in on /admin/login and waits until the back office opened. */
export async function signInAsAdmin(page: Page, admin: { email: string; password: string }): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Email', { exact: true }).fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/admin/login');
}
