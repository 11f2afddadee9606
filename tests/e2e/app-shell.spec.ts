import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeBrowser, useBrowserSuite, waitPastRetries } from '../helpers/browser';
import { HYDRATION_MISMATCH, withoutLoaderQuery } from '../helpers/loader-data';

/** The signed-in user's query (lib/auth-keys.ts). */
const USER_QUERY = ['auth', 'me'] as const;

const PASSWORD = 'correct-horse-battery';

function newEmail(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

async function pathOf(page: Page): Promise<string> {
  return new URL(page.url()).pathname;
}

async function signInOn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describeBrowser('app shell', () => {
  const shop = useBrowserSuite();

  it('shows the storefront navigation, footer and anchored sections on /', async () => {
    const page = await shop.newPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();

    const header = page.getByRole('banner');
    const main = header.getByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['Home', '/'],
      ['Shop', '/#shop'],
      ['Rewards', '/#rewards'],
      ['Ecosystem', '/#ecosystem'],
      ['How to Buy', '/how-to-buy'],
    ] as const) {
      expect(await main.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }
    expect(await header.getByRole('button', { name: 'Buy Token' }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Login', exact: true }).getAttribute('href')).toBe(
      '/login',
    );
    expect(await header.getByRole('link', { name: 'Admin login' }).getAttribute('href')).toBe('/admin/login');
    expect(await header.getByRole('button', { name: 'Cart, 0 items' }).isVisible()).toBe(true);

    for (const name of [
      'Shop the collection',
      'Rewards, claimed automatically',
      'Every order feeds the ecosystem',
    ]) {
      expect(await page.getByRole('heading', { level: 2, name }).count()).toBe(1);
    }
    const footer = page.getByRole('contentinfo');
    for (const name of ['About', 'FAQ', 'Shipping', 'Terms', 'Privacy', 'How to Buy']) {
      expect(await footer.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    expect(await footer.textContent()).toContain(`© ${new Date().getFullYear()}`);

    // An anchor link scrolls its section into view below the fixed bar.
    await main.getByRole('link', { name: 'Rewards', exact: true }).click();
    await page.waitForURL((url) => url.hash === '#rewards');
    await page.waitForFunction(() => {
      const top = document.getElementById('rewards')?.getBoundingClientRect().top ?? -1;
      return top >= 0 && top < 200;
    });

    // An info page is a real page with its heading; the nav stays.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    expect(await page.title()).toContain('Terms of Service');
  });

  it('answers an unknown path with the 404 page and status', async () => {
    // Chromium logs the document's own 404 status as a console error.
    shop.allowConsoleErrors(/status of 404/);
    const page = await shop.newPage();
    const res = await page.goto('/no-such-page/at-all');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1 }).waitFor();
  });

  it("says 'Failed to load user' in a red box on /login when the user cannot be loaded", async () => {
    shop.allowConsoleErrors(/status of 500/);
    const page = await shop.newPage();
    await page.route('**/api/auth/me', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Something went wrong' } }),
      }),
    );
    // The server renders /login with the user it loaded, and sends that user along in the loaders'
    // data. Without it (as when the server could not load the user in its time budget) the browser
    // loads the user itself, which is what fails here. The page's HTML then differs from what the
    // browser renders (a spinner while the user loads), which React reports and renders over.
    shop.allowConsoleErrors(HYDRATION_MISMATCH);
    await page.route('**/login', async (route) => {
      const response = await route.fetch();
      const html = withoutLoaderQuery(await response.text(), USER_QUERY);
      await route.fulfill({ response, body: html });
    });
    await page.clock.install();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const alert = page.getByRole('alert');
    await waitPastRetries(page, alert);
    expect(await alert.innerText()).toBe('Failed to load user');
  });

  it('signs out to / right after creating an account, twice in a row', async () => {
    for (const round of [1, 2]) {
      const page = await shop.newPage();
      const email = newEmail(`fresh-${round}`);
      await page.goto('/login');
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL((url) => url.pathname === '/profile/orders');
      const menu = page.getByRole('complementary');
      await menu.getByText(email).waitFor();

      // Every URL the page visits from here on: it must go to / and never pass through /login.
      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
      });
      await page.evaluate(() => {
        const w = window as unknown as { __paths: string[] };
        w.__paths = [];
        const record = () => w.__paths.push(location.pathname);
        const push = history.pushState.bind(history);
        const replace = history.replaceState.bind(history);
        history.pushState = (...args: Parameters<History['pushState']>) => (push(...args), record());
        history.replaceState = (...args: Parameters<History['replaceState']>) => (replace(...args), record());
      });
      await menu.getByRole('button', { name: 'Sign Out' }).click();
      await page.getByRole('banner').getByRole('link', { name: 'Login', exact: true }).waitFor();
      await page.getByRole('heading', { level: 1 }).waitFor();
      const pushed = await page.evaluate(() => (window as unknown as { __paths: string[] }).__paths);
      expect(await pathOf(page)).toBe('/');
      expect([...visited, ...pushed]).not.toContain('/login');
      await page.close();
    }
  });

  it('signs a customer up, out and in again', async () => {
    shop.allowConsoleErrors(/status of 401/);
    const page = await shop.newPage();
    const email = newEmail('shopper');

    // The account area needs a session: the server sends a full load to /login itself.
    const redirected = await page.request.get('/profile/orders', { maxRedirects: 0 });
    expect([redirected.status(), redirected.headers()['location']]).toEqual([302, '/login']);
    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();

    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('required')).not.toBeNull();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('required')).not.toBeNull();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL((url) => url.pathname === '/profile/orders');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    const menu = page.getByRole('complementary');
    await menu.getByText(email).waitFor();
    await menu.getByText('Member', { exact: true }).waitFor();
    for (const name of ['Orders', 'Messages', 'Wallet & Rewards', 'Settings', 'Back to Store']) {
      expect(await menu.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    await menu.getByRole('link', { name: 'Wallet & Rewards' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wallet & Rewards' }).waitFor();

    await menu.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('banner').getByRole('link', { name: 'Login', exact: true }).waitFor();

    // A wrong password is refused in a red box.
    await page.goto('/login');
    await signInOn(page, email, 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/invalid email or password/i);

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/profile/orders');
    await page.getByRole('complementary').getByText(email).waitFor();

    // Signed in: the storefront shows Profile instead of Login.
    await page.getByRole('complementary').getByRole('link', { name: 'Back to Store' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Profile', exact: true }).waitFor();
  });

  it('lets the admin into the back office', async () => {
    const page = await shop.newPage();
    await page.goto('/admin/products');
    await page.waitForURL((url) => url.pathname === '/admin/login');
    await page.getByRole('heading', { level: 1, name: 'Admin Login' }).waitFor();

    await signInOn(page, shop.server.admin.email, shop.server.admin.password);
    await page.waitForURL((url) => url.pathname === '/admin/products');
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
    const panel = page.getByRole('complementary');
    await panel.getByRole('heading', { name: 'Admin Panel' }).waitFor();
    await panel.getByRole('searchbox', { name: 'Quick search' }).waitFor();
    expect(await panel.getByRole('link', { name: 'Products' }).getAttribute('aria-current')).toBe('page');

    // Signed in, the sign-in page sends the admin on from the server (and from a full load).
    const again = await page.request.get('/admin/login', { maxRedirects: 0 });
    expect(again.status()).toBe(302);
    expect(again.headers()['location']).toBe('/admin/products');
    await page.goto('/admin/login');
    await page.waitForURL((url) => url.pathname === '/admin/products');
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();

    await panel.getByRole('link', { name: 'Audit Log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
    await panel.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard Overview' }).waitFor();

    await panel.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/login');
    await page.getByRole('heading', { level: 1, name: 'Admin Login' }).waitFor();
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/admin/login');
  });

  it('gives the admin a drawer with one section open at a time on a small screen', async () => {
    const page = await shop.newPage({ width: 360, height: 740 });
    await page.goto('/admin/login');
    await signInOn(page, shop.server.admin.email, shop.server.admin.password);
    await page.waitForURL((url) => url.pathname === '/admin/products');
    await page.getByText('Admin', { exact: true }).waitFor();
    expect(await page.getByRole('complementary').isVisible()).toBe(false);

    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const drawer = page.getByRole('dialog', { name: 'Admin navigation' });
    await drawer.getByRole('heading', { name: 'Admin Panel' }).waitFor();
    const overview = drawer.getByRole('button', { name: 'Overview' });
    const management = drawer.getByRole('button', { name: 'Management' });
    expect(await management.getAttribute('aria-expanded')).toBe('true');
    expect(await overview.getAttribute('aria-expanded')).toBe('false');
    expect(await drawer.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);

    await overview.click();
    expect(await overview.getAttribute('aria-expanded')).toBe('true');
    expect(await management.getAttribute('aria-expanded')).toBe('false');
    await drawer.getByRole('link', { name: 'Dashboard' }).click();
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Dashboard Overview' }).waitFor();

    // The dimmed backdrop closes the drawer.
    await toggle.click();
    await drawer.waitFor();
    await page.mouse.click(352, 400);
    await drawer.waitFor({ state: 'detached' });
  });

  it('refuses a customer on the admin login with a red banner', async () => {
    const page = await shop.newPage();
    const email = newEmail('customer');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/orders');

    await page.goto('/admin/login');
    await page.getByRole('heading', { level: 1, name: 'Admin Login' }).waitFor();
    await signInOn(page, email, PASSWORD);
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect((await banner.textContent())?.trim()).toBe('Not authorized');
    expect(await pathOf(page)).toBe('/admin/login');

    // Going straight to an admin page as a customer lands on the same banner.
    await page.goto('/admin/orders');
    await page.waitForURL((url) => url.pathname === '/admin/login');
    expect((await page.getByRole('alert').textContent())?.trim()).toBe('Not authorized');
  });

  it("says 'Not authenticated' or 'Authentication failed' on the admin login, and 'An error occurred' for odd failures", async () => {
    const page = await shop.newPage();
    await page.clock.install();
    // Without a session the server itself sends a full load to the sign-in page, which names the
    // reason in the HTML it sends.
    const redirected = await page.request.get('/admin/orders', { maxRedirects: 0 });
    expect([redirected.status(), redirected.headers()['location']]).toEqual([
      302,
      '/admin/login?reason=unauthenticated',
    ]);
    expect(await (await page.request.get('/admin/login?reason=unauthenticated')).text()).toContain(
      'Not authenticated',
    );
    await page.goto('/admin/orders');
    await page.waitForURL((url) => url.pathname === '/admin/login');
    expect((await page.getByRole('alert').textContent())?.trim()).toBe('Not authenticated');

    // The session check itself fails in the browser (the server answers without our error body),
    // for a visitor the server let through with a session.
    const failingCheck = { email: newEmail('failing-check'), password: PASSWORD };
    const signUp = await page.request.post('/api/auth/sign-up/email', {
      data: failingCheck,
      headers: { origin: shop.server.baseUrl },
    });
    expect(signUp.status()).toBe(200);
    // Sign-up never signs in: the session comes from signing in.
    const signedIn = await page.request.post('/api/auth/sign-in/email', {
      data: failingCheck,
      headers: { origin: shop.server.baseUrl },
    });
    expect(signedIn.status()).toBe(200);
    shop.allowConsoleErrors(/status of 502 \(Bad Gateway\)/);
    await page.route('**/api/auth/me', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
    // The browser checks the session itself when the page came without the user the server loaded.
    await page.route('**/admin/customers', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: withoutLoaderQuery(await response.text(), USER_QUERY) });
    });
    await page.goto('/admin/customers');
    const failed = page.getByRole('alert');
    await waitPastRetries(page, failed);
    await page.waitForURL((url) => url.pathname === '/admin/login');
    expect((await failed.textContent())?.trim()).toBe('Authentication failed');

    // A sign-in failure without the server's message: the form's post (to the page's action) gets a
    // proxy's error page.
    await page.route('**/admin/login.data*', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 502, body: '<html>' }) : route.fallback(),
    );
    await page.goto('/admin/login');
    await page.getByRole('heading', { level: 1, name: 'Admin Login' }).waitFor();
    await signInOn(page, 'someone@example.com', PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'An error occurred' }).waitFor();
    expect((await page.getByRole('alert').textContent())?.trim()).toBe('An error occurred');
  });

  it("opens the shop's own Buy Token from the mobile menu on the demo ledger", async () => {
    const page = await shop.newPage({ width: 360, height: 740 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.getByRole('button', { name: 'Buy Token' }).click();
    const modal = page.getByRole('dialog', { name: 'Buy AELO' });
    await modal.getByRole('heading', { name: 'Buy AELO' }).waitFor();
    expect(await modal.isVisible()).toBe(true);
  });

  it('opens the mobile menu at 360 px, keeps focus inside and closes on Escape', async () => {
    const page = await shop.newPage({ width: 360, height: 740 });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const noHorizontalScroll = await page.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(noHorizontalScroll).toBe(true);

    const opener = page.getByRole('button', { name: 'Open menu' });
    await opener.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    for (const name of ['Home', 'Shop', 'Rewards', 'Ecosystem', 'How to Buy']) {
      expect(await menu.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }
    // On the demo ledger (this test shop) the token exists only here: the menu's Buy Token is the
    // shop's own (an exchange's link on a real cluster).
    expect(await menu.getByRole('button', { name: 'Buy Token' }).isVisible()).toBe(true);
    expect(await menu.getByRole('link', { name: /Buy Token/ }).count()).toBe(0);

    // Tab and Shift+Tab never leave the menu.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);
    }

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);

    // Choosing a link closes the menu too.
    await opener.click();
    await menu.getByRole('link', { name: 'How to Buy', exact: true }).click();
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'How to Buy' }).waitFor();
  });
});
