/**
 * The forms a shopper meets first, in Chromium with JavaScript turned off: what a press does
 * before the page's code has arrived. Each form is a route <Form> posting to its route's action on
 * the real server, which answers with the next page (a redirect once signed in) or the same page
 * with the server's messages and what was typed (passwords excepted).
 */
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { outboxLink } from '../helpers/outbox';

const PASSWORD = 'lilac-harbour-42';

let accounts = 0;
function newEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${accounts++}@example.com`;
}

describeBrowser('auth forms', () => {
  // A few failed sign-ins put an account behind the mailed sign-in code (the code step's test).
  const shop = useBrowserSuite({ env: { SIGN_IN_ACCOUNT_CODE_AFTER: '3' } });

  /** The shop's API as another client calls it; answers the session cookie it set, if any. */
  async function post(
    pathname: string,
    body: unknown,
    cookie = '',
  ): Promise<{ status: number; cookie: string }> {
    const res = await fetch(shop.url(pathname), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.server.baseUrl, cookie },
      body: JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(';', 1)[0]);
    return { status: res.status, cookie: [cookie, ...set].filter(Boolean).join('; ') };
  }

  async function createAccount(email: string, password = PASSWORD): Promise<void> {
    expect((await post('/api/auth/sign-up/email', { email, password })).status).toBe(200);
  }

  const noScript = () => shop.newPage({ javaScriptEnabled: false });

  async function signInOn(page: Page, email: string, password: string): Promise<void> {
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  /** The account area the server rendered for `email`: its menu names the account. */
  async function expectAccountOf(page: Page, email: string): Promise<void> {
    await page.waitForURL((url) => url.pathname === '/profile/orders');
    await page.getByRole('complementary').getByText(email, { exact: true }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
  }

  it('signs in with the right password, and says so in a red box for a wrong one', async () => {
    const email = newEmail('no-js-sign-in');
    await createAccount(email);
    const page = await noScript();
    await page.goto('/login');
    // The server's HTML: a form that posts, its button not disabled.
    const form = page
      .locator('form[method="post"]')
      .filter({ has: page.getByLabel('Email', { exact: true }) });
    expect(await form.getAttribute('action')).toBe('/login');
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).isDisabled()).toBe(false);
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('required')).not.toBeNull();

    await signInOn(page, email, 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/invalid email or password/i);
    expect(new URL(page.url()).pathname).toBe('/login');
    // What was typed is kept, the password excepted.
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectAccountOf(page, email);
    // Signed in, /login sends the visitor on from the server.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/profile/orders');
  });

  it('creates an account, shows the server’s password advice, and asks to check the mail for a taken address', async () => {
    const email = newEmail('no-js-sign-up');
    const page = await noScript();
    await page.goto('/login');
    // The mode switch is a plain GET of /login?mode=sign-up.
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    expect(new URL(page.url()).searchParams.get('mode')).toBe('sign-up');

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Summer2026!');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(/^This password is easy to guess\. /).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectAccountOf(page, email);
    const banner = page.getByRole('status').filter({ hasText: 'Confirm your email address' });
    expect(await banner.textContent()).toContain(`We sent a link to ${email}.`);

    // The same address again, with another password: the same answer, then check the mail.
    const other = await noScript();
    await other.goto('/login?mode=sign-up');
    await other.getByLabel('Email', { exact: true }).fill(email);
    await other.getByLabel('Password', { exact: true }).fill('another-orchard-lamp-64');
    await other.getByRole('button', { name: 'Create account' }).click();
    await other.getByText('Check your email to finish creating your account.').waitFor();
    expect(new URL(other.url()).pathname).toBe('/login');
  });

  it('mails a reset link and sets a new password from it', async () => {
    const email = newEmail('no-js-reset');
    await createAccount(email);
    const page = await noScript();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    // The browser lets this address through; the server's schema does not.
    await page.getByLabel('Email', { exact: true }).fill('shopper@shop');
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await page.getByText(/If an account exists for this address/).waitFor();

    const link = await outboxLink(
      shop.server.dataDir,
      email,
      /https?:\/\/[^\s"<]+\/reset-password\?token=[^\s"<]+/,
    );
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('violet-compass-58');
    await page.getByLabel('Confirm new password', { exact: true }).fill('violet-compass-59');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('violet-compass-58');
    await page.getByLabel('Confirm new password', { exact: true }).fill('violet-compass-58');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await signInOn(page, email, 'violet-compass-58');
    await expectAccountOf(page, email);
  });

  it("confirms the email from the mailed link with the account's password", async () => {
    const email = newEmail('no-js-verify');
    await createAccount(email);
    const page = await noScript();
    await page.goto(
      await outboxLink(shop.server.dataDir, email, /https?:\/\/[^\s"<]+\/verify-email\?token=[^\s"<]+/),
    );
    await page.getByRole('heading', { name: 'Confirm your email' }).waitFor();
    await page.getByText(email, { exact: true }).waitFor();
    await page.getByRole('button', { name: "I know this account's password" }).click();
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Confirm email' }).click();
    await page.getByText("That is not this account's password. Set a new password instead.").waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Confirm email' }).click();
    await expectAccountOf(page, email);
    expect(await page.getByText('Confirm your email address').count()).toBe(0);
  });

  it('asks for the mailed code (with the password again) after many failed sign-ins', async () => {
    const email = newEmail('no-js-code');
    await createAccount(email);
    for (let i = 0; i < 3; i++) await post('/api/auth/sign-in/email', { email, password: `guess ${i}` });
    const page = await noScript();
    await page.goto('/login');
    await signInOn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const code = /\d{6}/.exec(await outboxLink(shop.server.dataDir, email, /sign-in code is \d{6}/))![0];

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Sign-in code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('That code did not work.', { exact: false }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Sign-in code').fill(code);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectAccountOf(page, email);
  });

  it('signs in with two-factor on: the code step, and the switch to a backup code', async () => {
    const email = newEmail('no-js-otp');
    await createAccount(email);
    const session = await post('/api/auth/sign-in/email', { email, password: PASSWORD });
    const enable = await fetch(shop.url('/api/auth/two-factor/enable'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.server.baseUrl, cookie: session.cookie },
      body: JSON.stringify({ password: PASSWORD }),
    });
    const { totpURI } = (await enable.json()) as { totpURI: string };
    const secret = new URL(totpURI).searchParams.get('secret')!;
    const confirmed = await post(
      '/api/auth/two-factor/confirm',
      { code: await generate({ secret }) },
      session.cookie,
    );
    expect(confirmed.status).toBe(200);

    const page = await noScript();
    await page.goto('/login');
    await signInOn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').waitFor();
    await page.getByRole('button', { name: 'Use the authenticator app instead' }).click();
    await page.getByLabel('Authentication code').fill('12345');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Enter the 6-digit code from your authenticator app', { exact: true }).waitFor();
    // The next period's code (the one above may already have been used).
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectAccountOf(page, email);
  });

  it('lets the admin into the back office, and tells a customer they are not authorized', async () => {
    const customer = newEmail('no-js-customer');
    await createAccount(customer);
    const refused = await noScript();
    await refused.goto('/admin/login');
    await signInOn(refused, customer, PASSWORD);
    const banner = refused.getByRole('alert');
    await banner.waitFor();
    expect((await banner.textContent())?.trim()).toBe('Not authorized');
    expect(new URL(refused.url()).pathname).toBe('/admin/login');

    const page = await noScript();
    await page.goto('/admin/login');
    await signInOn(page, shop.server.admin.email, 'not-the-password');
    await page
      .getByRole('alert')
      .filter({ hasText: /invalid email or password/i })
      .waitFor();
    await signInOn(page, shop.server.admin.email, shop.server.admin.password);
    await page.waitForURL((url) => url.pathname === '/admin/products');
  });
});
