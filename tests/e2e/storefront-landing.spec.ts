/**
 * Storefront journeys on the seeded demo catalogue, the landing page around the grid: Rewards and
 * Ecosystem reached from another page while the grid loads, the token ticker (local figures, live
 * ones formatted, the feed failing), the airdrop progress, and an admin's change reaching an open
 * page without a reload.
 */
import type { Locator, Page, Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatUsd } from '#common/money';
import { LOCAL_MARKET } from '#common/schemas/market';
import { describeBrowser, useBrowserSuite, waitPastRetries } from '../helpers/browser';
import { card, gridTitles, openLandingInBrowser, products } from '../helpers/browser-storefront';

/** Answers GET /api/market/token-stats with the given first pair (the browser's view of the feed). */
async function routeTokenStats(
  page: Page,
  pair: { priceUsd: string; h24: number; volume: number; fdv: number },
) {
  await page.route('**/api/market/token-stats', (route: Route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        pairs: [
          {
            priceUsd: pair.priceUsd,
            priceChange: { h24: pair.h24 },
            volume: { h24: pair.volume },
            fdv: pair.fdv,
          },
        ],
        source: 'live',
        fetchedAt: new Date().toISOString(),
      }),
    }),
  );
}

/** The computed text colour of an element. */
function colorOf(locator: Locator): Promise<string> {
  return locator.evaluate((el) => getComputedStyle(el).color);
}

/** The colour a Tailwind text utility of the shop's stylesheet computes to, on a probe element. */
function utilityColor(page: Page, utility: string): Promise<string> {
  return page.evaluate((cls) => {
    const probe = document.createElement('span');
    probe.className = cls;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, utility);
}

describeBrowser('storefront', () => {
  // Seeding renders the demo photos: allow for a busy machine (the hook timeout is 120 s).
  const shop = useBrowserSuite({ seedDemo: true, startTimeoutMs: 110_000 });

  it('lands on Rewards and Ecosystem from another page even while the product grid above is loading', async () => {
    /** A page whose catalogue is slow: the grid above the two sections grows after the first scroll. */
    const slowCataloguePage = async () => {
      const page = await shop.newPage();
      await page.route('**/api/products*', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        await route.continue();
      });
      return page;
    };
    const settledTop = async (page: Page, id: string) => {
      await page.getByRole('list', { name: 'Products' }).waitFor();
      // Settled: the section's position did not move for five frames in a row.
      return page.evaluate(
        (el) =>
          new Promise<number>((resolve) => {
            let last = Number.NaN;
            let still = 0;
            const tick = () => {
              const top = document.getElementById(el)?.getBoundingClientRect().top ?? -1;
              still = top === last ? still + 1 : 0;
              last = top;
              if (still >= 5) resolve(top);
              else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          }),
        id,
      );
    };
    const navLink = (page: Page, name: string) =>
      page
        .getByRole('banner')
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name, exact: true });

    // The test shop runs the demo ledger: its banner (a live shop has none) is above the bar.
    const barBottom = async (page: Page) =>
      64 + ((await page.locator('.demo-ledger-banner').boundingBox())?.height ?? 0);

    // From an info page: just below the fixed 64 px bar, not somewhere in the product grid.
    const fromAbout = await slowCataloguePage();
    await fromAbout.goto('/about');
    await fromAbout.getByRole('heading', { level: 1, name: 'About Aelo' }).waitFor();
    await navLink(fromAbout, 'Rewards').click();
    await fromAbout.waitForURL((url) => url.hash === '#rewards');
    expect(Math.abs((await settledTop(fromAbout, 'rewards')) - (await barBottom(fromAbout)))).toBeLessThan(4);

    // Opened straight from an address.
    const direct = await slowCataloguePage();
    await direct.goto('/#rewards');
    expect(Math.abs((await settledTop(direct, 'rewards')) - (await barBottom(direct)))).toBeLessThan(4);

    // Ecosystem is the last section: it comes into view as far as the page can scroll.
    const toEcosystem = await slowCataloguePage();
    await toEcosystem.goto('/faq');
    await toEcosystem.getByRole('heading', { level: 1 }).waitFor();
    await navLink(toEcosystem, 'Ecosystem').click();
    await toEcosystem.waitForURL((url) => url.hash === '#ecosystem');
    const ecosystemTop = await settledTop(toEcosystem, 'ecosystem');
    expect(ecosystemTop).toBeGreaterThanOrEqual(0);
    expect(ecosystemTop).toBeLessThan((toEcosystem.viewportSize()?.height ?? 0) / 2);
  });

  it('shows the local token figures in the ticker, formatted', async () => {
    const page = await shop.newPage();
    await page.goto('/');
    const ticker = page.getByRole('region', { name: 'AELO token ticker' });
    await ticker.waitFor();
    const text = (await ticker.textContent()) ?? '';
    expect(text).toContain(`$${Number(LOCAL_MARKET.token.priceUsd).toFixed(6)}`);
    expect(text).toContain('$125.43K'); // volume 125,430.50
    expect(text).toContain('$420.00K'); // fdv 420,000
    expect(text).toContain('+3.25%');
    expect(text).toMatch(/local data/i);
    // +3.25% renders green (it rendered white while two colour utilities fought in one class list).
    const change = ticker.locator('[data-tone]').first();
    expect(await colorOf(change)).toBe(await utilityColor(page, 'text-emerald-400'));
    expect(await colorOf(change)).not.toBe(await utilityColor(page, 'text-white'));
    await page.getByText('Free Shipping on Orders Over $50!').first().waitFor();
    // The hero's progress: 420,000 of 2,000,000.
    const bar = page.getByRole('progressbar', { name: 'Airdrop progress' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('21');
  });

  it('formats live figures: 6-decimal price, red falling change, $x.xxM and $x.xx', async () => {
    const page = await shop.newPage();
    await routeTokenStats(page, { priceUsd: '0.00123456', h24: -4.5, volume: 1_234_567, fdv: 987.6 });
    await openLandingInBrowser(page);
    const ticker = page.getByRole('region', { name: 'AELO token ticker' });
    await ticker.waitFor();
    const text = (await ticker.textContent()) ?? '';
    expect(text).toContain('$0.001235');
    expect(text).toContain('-4.50%');
    expect(text).toContain('$1.23M');
    expect(text).toContain('$987.60');
    expect(text).not.toMatch(/local data/i);
    const change = ticker.locator('[data-tone]').first();
    expect(await change.getAttribute('data-tone')).toBe('down');
    // The colour the shopper sees, not the class list: red, not the white of the other figures.
    expect(await colorOf(change)).toBe(await utilityColor(page, 'text-red-400'));
    expect(await colorOf(change)).not.toBe(await utilityColor(page, 'text-white'));

    const rising = await shop.newPage();
    await routeTokenStats(rising, { priceUsd: '2', h24: 0, volume: 2_500, fdv: 3_000_000 });
    await openLandingInBrowser(rising);
    const risingTicker = rising.getByRole('region', { name: 'AELO token ticker' });
    await risingTicker.waitFor();
    expect(await risingTicker.textContent()).toContain('$2.000000');
    expect(await risingTicker.textContent()).toContain('$2.50K');
    const rise = risingTicker.locator('[data-tone]').first();
    expect(await rise.getAttribute('data-tone')).toBe('up');
    expect(await colorOf(rise)).toBe(await utilityColor(rising, 'text-emerald-400'));
    expect(await colorOf(rise)).not.toBe(await utilityColor(rising, 'text-white'));
  });

  it('shows the ticker error text when the feed fails, and the rest of the page still works', async () => {
    shop.allowConsoleErrors(/status of 503/);
    const page = await shop.newPage();
    let calls = 0;
    await page.route('**/api/market/token-stats', (route) => {
      calls++;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'HTTP error! status: 500' } }),
      });
    });
    await page.clock.install();
    await openLandingInBrowser(page);
    await page.getByText('Loading token data...').waitFor();
    await waitPastRetries(page, page.getByText('Failed to load token data. Please try again later.'));
    expect(calls).toBe(4); // the first try and 3 retries
    await page.getByText('Market cap unavailable right now.').waitFor();
    expect((await gridTitles(page)).length).toBeGreaterThan(0);
  });

  it('fills the airdrop progress bar toward the goal and says Ready to Claim! at it', async () => {
    const below = await shop.newPage();
    await routeTokenStats(below, { priceUsd: '0.001', h24: 1, volume: 10_000, fdv: 1_000_000 });
    await openLandingInBrowser(below);
    const bar = below.getByRole('progressbar', { name: 'Airdrop progress' });
    await below.waitForFunction(() => document.querySelector('[role="progressbar"][aria-valuenow]'));
    expect(await bar.getAttribute('aria-valuenow')).toBe('50');
    const hero = below.getByRole('region', { name: 'Airdrop progress' });
    expect(await hero.textContent()).toContain('50.0%');
    expect(await hero.textContent()).toContain('$1.00M to go');
    expect(await hero.getByText('Ready to Claim!').count()).toBe(0);

    const above = await shop.newPage();
    await routeTokenStats(above, { priceUsd: '0.003', h24: 1, volume: 10_000, fdv: 2_500_000 });
    await openLandingInBrowser(above);
    await above.getByText('Ready to Claim!').waitFor();
    expect(
      await above.getByRole('progressbar', { name: 'Airdrop progress' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    const aboveHero = above.getByRole('region', { name: 'Airdrop progress' });
    expect(await aboveHero.textContent()).toContain('100.0%');
    expect(await aboveHero.textContent()).not.toContain('to go');
  });

  it("shows an admin's product change on an open landing page without a reload", async () => {
    const all = await products(shop);
    const target = all[all.length - 1]!;
    const page = await shop.newPage();
    await page.goto('/');
    await gridTitles(page);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    // The admin changes the price through the API, from another client.
    const origin = shop.server.baseUrl;
    const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify(shop.server.admin),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const newPriceCents = target.priceCents + 1_111;
    const patch = await fetch(`${origin}/api/admin/products/${target.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify({ priceCents: newPriceCents }),
    });
    expect(patch.status).toBe(200);

    await card(page, target.title).getByText(formatUsd(newPriceCents)).waitFor({ timeout: 5_000 });
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
  });
});
