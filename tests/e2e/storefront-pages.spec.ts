/**
 * Storefront journeys that need no catalogue: the cookie notice and disclaimer (remembered across
 * reloads), the info pages, How to Buy with its copy button, and the small-screen layout.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  describeBrowser,
  trackPageErrors,
  unexpectedErrors,
  useBrowserSuite,
  waitingForHydration,
  type BrowserSuite,
  type PageErrorLog,
} from '../helpers/browser';

const CONSENT_KEY = 'aelo-cookie-consent';
const DISCLAIMER_KEY = 'aelo-disclaimer-accepted';

/**
 * A first-time visitor: a context of our own, so that nothing pre-answers the prompts, with the
 * same "no console errors" rule as shop.newPage().
 */
async function firstVisit(shop: BrowserSuite, run: (page: Page) => Promise<void>): Promise<void> {
  const log: PageErrorLog = { errors: [], allowed: [] };
  const context: BrowserContext = await shop.browser.newContext({
    baseURL: shop.server.baseUrl,
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  trackPageErrors(context, log);
  try {
    // Like shop.newPage(): goto and reload wait until the app has hydrated the server's HTML.
    await run(waitingForHydration(await context.newPage()));
  } finally {
    await context.close();
  }
  expect(unexpectedErrors(log)).toEqual([]);
}

/** A flag as the page keeps it: the cookie the server reads, and the same value in localStorage. */
async function flag(page: Page, key: string): Promise<string | null> {
  const cookie = (await page.context().cookies()).find((c) => c.name === key)?.value ?? null;
  const local = await page.evaluate((k) => localStorage.getItem(k), key);
  expect(cookie).toBe(local);
  return local;
}

const CONTACT_EMAIL = 'hello@aelo-shop.example';

describeBrowser('storefront pages', () => {
  const shop = useBrowserSuite({ env: { SHOP_CONTACT_EMAIL: CONTACT_EMAIL } });

  it('shows the disclaimer until it is acknowledged with I Understand, and remembers it', async () => {
    await firstVisit(shop, async (page) => {
      await page.goto('/');
      const disclaimer = page.getByRole('dialog', { name: 'Important Disclaimer' });
      await disclaimer.waitFor();
      const text = (await disclaimer.textContent()) ?? '';
      expect(text).toMatch(/^Important Disclaimer[\s\S]*Welcome to Aelo/);
      for (const fact of [
        'Cryptocurrency is high risk',
        'Past performance does not predict future results.',
        'Only invest what you can afford to lose.',
        'Do your own research',
        'pre-loved and carefully authenticated',
        'subjective',
        'Colors may vary',
        'All sales are final unless an item is significantly misrepresented.',
      ]) {
        expect(text).toContain(fact);
      }
      expect(await disclaimer.getByRole('button', { name: 'Close' }).isVisible()).toBe(true);
      // It is in the server's HTML (readable at once); the app makes it modal once its code is in.
      await page.locator('dialog#disclaimer:modal').waitFor();

      // Focus stays inside; a click on the backdrop does not dismiss it.
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(
          true,
        );
      }
      await page.mouse.click(5, 400);
      expect(await disclaimer.isVisible()).toBe(true);

      await disclaimer.getByRole('button', { name: 'I Understand' }).click();
      await disclaimer.waitFor({ state: 'detached' });
      expect(await flag(page, DISCLAIMER_KEY)).toBe('true');
      await page.reload();
      // The prompts read their flags synchronously in the layout that renders the heading.
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('dialog', { name: 'Important Disclaimer' }).count()).toBe(0);
    });
  });

  it('renders the prompts a visitor has not answered into the HTML, and none that were answered', async () => {
    const html = async (cookie?: string) => {
      const res = await fetch(shop.url('/'), {
        headers: cookie ? { cookie } : {},
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const first = await html();
    expect(first).toContain('Important Disclaimer');
    expect(first).toContain('Cookie Notice');
    const answered = await html(`${DISCLAIMER_KEY}=true; ${CONSENT_KEY}=false`);
    expect(answered).not.toContain('Important Disclaimer');
    expect(answered).not.toContain('Cookie Notice');
    expect(answered).toContain('<h1');
  });

  it('counts the close icon and Escape as acknowledging the disclaimer', async () => {
    await firstVisit(shop, async (page) => {
      await page.goto('/about');
      const disclaimer = page.getByRole('dialog', { name: 'Important Disclaimer' });
      await disclaimer.getByRole('button', { name: 'Close' }).click();
      await disclaimer.waitFor({ state: 'detached' });
      expect(await flag(page, DISCLAIMER_KEY)).toBe('true');
    });
    await firstVisit(shop, async (page) => {
      await page.goto('/');
      const disclaimer = page.getByRole('dialog', { name: 'Important Disclaimer' });
      await disclaimer.waitFor();
      await page.keyboard.press('Escape');
      await disclaimer.waitFor({ state: 'detached' });
      expect(await flag(page, DISCLAIMER_KEY)).toBe('true');
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('dialog', { name: 'Important Disclaimer' }).count()).toBe(0);
    });
  });

  it('shows the cookie notice until a choice is stored: Accept All stores true, Decline false', async () => {
    await firstVisit(shop, async (page) => {
      await page.goto('/');
      await page
        .getByRole('dialog', { name: 'Important Disclaimer' })
        .getByRole('button', { name: 'I Understand' })
        .click();
      const notice = page.getByRole('region', { name: 'Cookie Notice' });
      await notice.waitFor();
      expect(await notice.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
        '/privacy',
      );
      expect(await notice.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
        '/terms',
      );
      expect(await flag(page, CONSENT_KEY)).toBeNull();

      // Still there after a reload while unanswered.
      await page.reload();
      await notice.waitFor();
      await notice.getByRole('button', { name: 'Accept All' }).click();
      await notice.waitFor({ state: 'detached' });
      expect(await flag(page, CONSENT_KEY)).toBe('true');
      await page.reload();
      // The prompts read their flags synchronously in the layout that renders the heading.
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('region', { name: 'Cookie Notice' }).count()).toBe(0);
    });

    await firstVisit(shop, async (page) => {
      await page.goto('/faq');
      await page
        .getByRole('dialog', { name: 'Important Disclaimer' })
        .getByRole('button', { name: 'I Understand' })
        .click();
      const notice = page.getByRole('region', { name: 'Cookie Notice' });
      await notice.getByRole('button', { name: 'Decline' }).click();
      await notice.waitFor({ state: 'detached' });
      expect(await flag(page, CONSENT_KEY)).toBe('false');
      await page.reload();
      // The prompts read their flags synchronously in the layout that renders the heading.
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('region', { name: 'Cookie Notice' }).count()).toBe(0);

      // The privacy policy the notice links to.
      await page.goto('/privacy');
      await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    });
  });

  it('has an About page with mission, values, story, five steps, community and Shop Now', async () => {
    const page = await shop.newPage();
    await page.goto('/about');
    await page.getByRole('heading', { level: 1, name: 'About Aelo' }).waitFor();
    expect(await page.title()).toContain('About Aelo');
    const main = page.getByRole('main');
    expect(await main.textContent()).toMatch(/Our mission is/);
    for (const name of ['Quality', 'Sustainable growth', 'Premium brand']) {
      expect(await main.getByRole('heading', { level: 3, name, exact: true }).count()).toBe(1);
    }
    expect(await main.getByRole('heading', { name: 'Our story' }).count()).toBe(1);
    expect(await main.textContent()).toContain('founded in 2024');
    const steps = main.getByRole('list').filter({ has: page.getByRole('heading', { name: 'Authenticate' }) });
    expect(await steps.getByRole('listitem').count()).toBe(5);
    expect(await main.getByRole('heading', { name: 'Community and rewards' }).count()).toBe(1);
    await main.getByRole('link', { name: 'Shop Now' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('has a FAQ with one section open at a time', async () => {
    const page = await shop.newPage();
    await page.goto('/faq');
    await page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }).waitFor();
    const toggles = page.getByRole('main').getByRole('button', { expanded: true });
    expect(await toggles.count()).toBe(1);
    const first = page.getByRole('button', { name: 'Orders & shipping' });
    const returns = page.getByRole('button', { name: 'Returns & refunds' });
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByText('Where do you ship?').isVisible()).toBe(true);
    expect(await page.getByText('Who pays for return shipping?').isVisible()).toBe(false);

    await returns.click();
    expect(await returns.getAttribute('aria-expanded')).toBe('true');
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByText('Where do you ship?').isVisible()).toBe(false);
    const region = page.getByRole('region', { name: 'Returns & refunds' });
    expect(await region.textContent()).toContain('within 7 days of delivery');
    expect(await region.textContent()).toContain('The customer pays return shipping.');
    expect(await region.textContent()).toContain('Within 5 business days');
    expect(await page.getByRole('main').getByRole('button', { expanded: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Condition & authenticity' }).click();
    const condition = page.getByRole('region', { name: 'Condition & authenticity' });
    for (const rating of ['New', 'Like New', 'Good', 'Fair']) {
      expect(await condition.getByText(rating, { exact: true }).count()).toBe(1);
    }
    // Closing the open section leaves none open.
    await page.getByRole('button', { name: 'Condition & authenticity' }).click();
    expect(await page.getByRole('main').getByRole('button', { expanded: true }).count()).toBe(0);
  });

  it('has a Shipping page with processing, method, tracking and the costs table', async () => {
    const page = await shop.newPage();
    await page.goto('/shipping');
    await page.getByRole('heading', { level: 1, name: 'Shipping' }).waitFor();
    const main = page.getByRole('main');
    const text = (await main.textContent()) ?? '';
    expect(text).toContain('within 48 hours');
    expect(text).toContain('USPS');
    expect(text).toContain('3-5 business days');
    expect(text).toContain('continental');
    expect(text).toContain('You will receive tracking information within 48 hours once your order ships.');
    const table = main.getByRole('table', { name: 'Shipping cost by order subtotal' });
    const rows = await table.getByRole('row').allTextContents();
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/\$0\.00.*\$49\.99.*\$4\.99/);
    expect(rows[2]).toMatch(/\$50\.00 and over.*Free/);
  });

  it('has Terms of Service with the last-updated date and twelve numbered sections', async () => {
    const page = await shop.newPage();
    await page.goto('/terms');
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    const main = page.getByRole('main');
    await main.getByText('Last updated March 28, 2024').waitFor();
    const sections = main.getByRole('heading', { level: 2 });
    const titles = await sections.allTextContents();
    expect(titles).toHaveLength(12);
    titles.forEach((title, i) => expect(title).toMatch(new RegExp(`^${i + 1}\\.`)));
    const text = (await main.textContent()) ?? '';
    expect(text).toContain('within 7 days of delivery');
    expect(text).toContain('New, Like New, Good or Fair');
  });

  it('gives the contact address (SHOP_CONTACT_EMAIL) in the footer, the FAQ and the privacy policy, without JavaScript too', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const page = await shop.newPage({ javaScriptEnabled });
      for (const path of ['/', '/faq', '/privacy']) {
        await page.goto(path);
        const mailto = page.locator(`a[href="mailto:${CONTACT_EMAIL}"]`);
        expect(
          await mailto.count(),
          `${path} (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`,
        ).toBeGreaterThanOrEqual(path === '/' ? 1 : 2);
        expect(await mailto.first().textContent()).toBe(CONTACT_EMAIL);
      }
    }
    const res = await fetch(shop.url('/api/shop'));
    expect(await res.json()).toMatchObject({
      contactEmail: CONTACT_EMAIL,
      token: { symbol: 'AELO', cluster: 'local' },
    });
  });

  it('has a Privacy Policy naming what the browser stores, accounts and payments', async () => {
    const page = await shop.newPage();
    await page.goto('/privacy');
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    const text = (await page.getByRole('main').textContent()) ?? '';
    for (const fact of [
      CONSENT_KEY,
      DISCLAIMER_KEY,
      'aelo-cart',
      'Session cookie',
      'Accounts',
      'Stripe',
      'Solana',
    ]) {
      expect(text).toContain(fact);
    }
  });

  it('puts a Back to Home link on every info page', async () => {
    const page = await shop.newPage();
    for (const path of ['/about', '/faq', '/shipping', '/terms', '/privacy', '/how-to-buy']) {
      await page.goto(path);
      const back = page.getByRole('main').getByRole('link', { name: 'Back to Home' });
      await back.waitFor();
      expect(await back.getAttribute('href')).toBe('/');
    }
    await page.getByRole('main').getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('explains How to Buy in three steps with a risk warning and a copyable contract address', async () => {
    const page = await shop.newPage();
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shop.server.baseUrl });
    // The mint is the server's (the local ledger's own here), not a constant of the web app.
    const mint = await tokenMint(shop.server.baseUrl);
    await page.goto('/how-to-buy');
    await page.getByRole('heading', { level: 1, name: 'How to Buy' }).waitFor();
    const main = page.getByRole('main');
    expect(await main.getByRole('note', { name: 'Investment risk' }).textContent()).toMatch(
      /high risk.*afford to lose/,
    );
    const steps = await main.getByRole('heading', { level: 2 }).allTextContents();
    expect(steps).toEqual([
      'Step 1: Set up a wallet',
      'Step 2: Get SOL',
      'Step 3: Buy AELO on a decentralized exchange',
    ]);
    expect(await main.textContent()).toContain('at least 0.1 SOL');
    // On the demo ledger (this test shop) no exchange or chart knows the token: step 3 offers the
    // shop's own Buy Token, which opens its modal (the exchange's and chart's links on a real cluster).
    expect(await main.getByRole('link', { name: /View the AELO chart|Swap on Jupiter/ }).count()).toBe(0);
    await main.getByRole('button', { name: 'Buy Token' }).click();
    const modal = page.getByRole('dialog', { name: 'Buy AELO' });
    await modal.waitFor();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    await main.getByText(mint, { exact: true }).waitFor();
    const copy = main.getByRole('button', { name: 'Copy' });
    await copy.click();
    await main.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(mint);
    await main.getByRole('button', { name: 'Copy' }).waitFor({ timeout: 5_000 });
  });

  it('works at 360 px: mobile menu, no sideways scrolling on any storefront page', async () => {
    const page = await shop.newPage({ width: 360, height: 740, isMobile: true });
    for (const path of ['/', '/about', '/faq', '/shipping', '/terms', '/privacy', '/how-to-buy']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(fits, `${path} scrolls sideways at 360 px`).toBe(true);
    }
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    for (const name of ['Home', 'Shop', 'Rewards', 'Ecosystem', 'How to Buy']) {
      expect(await menu.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }
    // The demo ledger's token is sold only here: the shop's own Buy Token (app-shell opens it).
    expect(await menu.getByRole('button', { name: 'Buy Token' }).isVisible()).toBe(true);
    await menu.getByRole('link', { name: 'Rewards', exact: true }).click();
    await menu.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.hash === '#rewards');
    await page.waitForFunction(() => {
      const top = document.getElementById('rewards')?.getBoundingClientRect().top ?? -1;
      return top >= 0 && top < 200;
    });
  });
});

async function tokenMint(baseUrl: string): Promise<string> {
  const info = (await (await fetch(`${baseUrl}/api/shop`)).json()) as { token: { mint: string } };
  expect(info.token.mint).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  return info.token.mint;
}
