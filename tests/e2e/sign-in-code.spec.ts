/**
 * The sign-in code step in Chromium: an account guessed at SIGN_IN_ACCOUNT_CODE_AFTER times asks a
 * browser it never signed in on for the code mailed to it (read here from DATA_DIR/outbox, where
 * the real server's mail sender writes it) besides the password, on the shop's sign-in page and
 * on the back office's. With SCREENSHOTS_DIR set, the step is saved 360 and 1280 px wide.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { DEFAULT_ADMIN, describeBrowser, useBrowserSuite } from '../helpers/browser';
import { outboxLink } from '../helpers/outbox';

const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR;

async function screenshots(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const before = page.viewportSize();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({
      path: path.join(SCREENSHOTS_DIR, `${name}-${width}.png`),
      animations: 'disabled',
    });
  }
  if (before) await page.setViewportSize(before);
}

describeBrowser('sign-in code step', () => {
  const shop = useBrowserSuite({ env: { SIGN_IN_ACCOUNT_CODE_AFTER: '3' } });

  /** A request to the shop's API as another client would send it. */
  const post = (pathname: string, body: unknown) =>
    fetch(shop.url(pathname), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.server.baseUrl },
      body: JSON.stringify(body),
    });

  /** Three wrong passwords: the account now asks new devices for a mailed code. */
  async function guessAt(email: string) {
    for (let i = 0; i < 3; i++) await post('/api/auth/sign-in/email', { email, password: `guess ${i}` });
  }

  const mailedCode = async (email: string) =>
    /\d{6}/.exec(await outboxLink(shop.server.dataDir, email, /sign-in code is \d{6}/))![0];

  it('asks the shop sign-in for the mailed code, refuses a wrong one, and signs in with it', async () => {
    const email = `guarded-${Date.now().toString(36)}@example.com`;
    const password = 'violet harbor lantern 84';
    await post('/api/auth/sign-up/email', { email, password });
    await guessAt(email);

    const page = await shop.newPage();
    // The answers the step handles are 401s, which the browser logs.
    shop.allowConsoleErrors(/401/);
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await screenshots(page, 'sign-in-code');

    await page.getByLabel('Sign-in code').fill('12345');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter the 6-digit code from the email').waitFor();
    const code = await mailedCode(email);
    await page.getByLabel('Sign-in code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('That code did not work.', { exact: false }).waitFor();
    await screenshots(page, 'sign-in-code-wrong');

    await page.getByLabel('Sign-in code').fill(code);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/profile'));
  });

  it('asks the back office sign-in for the mailed code too', async () => {
    await guessAt(DEFAULT_ADMIN.email);
    const page = await shop.newPage();
    shop.allowConsoleErrors(/401/);
    await page.goto('/admin/login');
    await page.getByLabel('Email', { exact: true }).fill(DEFAULT_ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await screenshots(page, 'admin-sign-in-code');
    await page.getByLabel('Sign-in code').fill(await mailedCode(DEFAULT_ADMIN.email));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/admin/login'));
  });
});
