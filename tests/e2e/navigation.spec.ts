import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** From the landing page's footer to About (at its top), Back (to the footer) and Forward (to the top). */
async function aboutAndBackAndForward(page: Page): Promise<void> {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await footer.scrollIntoViewIfNeeded();
  const where = await scrollY(page);
  expect(where).toBeGreaterThan(800);

  await footer.getByRole('link', { name: 'About', exact: true }).click();
  await page.waitForURL('**/about');
  await page.getByRole('heading', { level: 1, name: /about/i }).waitFor();
  await expect.poll(() => scrollY(page)).toBe(0);

  await page.goBack();
  await page.waitForURL((url) => url.pathname === '/');
  await expect.poll(() => scrollY(page)).toBe(where);

  await page.goForward();
  await page.waitForURL('**/about');
  await expect.poll(() => scrollY(page)).toBe(0);
}

/**
 * What the router does between pages (app/scroll-restoration.tsx, app/page-modules.tsx,
 * app/error-boundaries.tsx): where the window is, what shows while a page's code loads, and what
 * shows when it cannot load.
 */
describeBrowser('navigation between pages', () => {
  const shop = useBrowserSuite();

  it('starts a new page at the top and returns to the same place on Back and Forward', async () => {
    await aboutAndBackAndForward(await shop.newPage({ width: 1280, height: 800 }));
  });

  it('keeps both places when the shopper goes Back and Forward before the browser paints a frame', async () => {
    const page = await shop.newPage({ width: 1280, height: 800 });
    // The page's animation frames never come, as on a machine too busy to paint between moves.
    await page.addInitScript(() => {
      window.requestAnimationFrame = () => 0;
    });
    await aboutAndBackAndForward(page);
  });

  it('shows the progress bar while the next page loads, then the page', async () => {
    const page = await shop.newPage();
    await page.goto('/');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/faq-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });

    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ', exact: true }).click();
    const progress = page.getByRole('progressbar', { name: 'Loading page' });
    await progress.waitFor();
    // The page the shopper came from stays, at its address, until the next one is ready (React
    // Router moves the address when the navigation completes).
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.locator('#shop').count()).toBe(1);

    release();
    await page.getByRole('heading', { level: 1, name: /Frequently asked/i }).waitFor();
    await progress.waitFor({ state: 'detached' });
  });

  it("reloads the page when a page's code could not load (a deploy replaced it), and the next try works", async () => {
    const page = await shop.newPage();
    shop.allowConsoleErrors(
      /ERR_FAILED|dynamically imported module|Failed to fetch|Error loading route module/i,
    );
    await page.goto('/');
    let failed = 0;
    await page.route(/\/assets\/terms-[^/]+\.js$/, async (route) => {
      failed++;
      await route.abort('failed');
    });

    // React Router's answer to a route module that cannot load: a full load of the page, which
    // brings the current build's code (its chunks' names are in the new HTML).
    const reloaded = page.waitForEvent('load');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms', exact: true }).click();
    await reloaded;
    expect(failed).toBeGreaterThan(0);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });

    await page.unroute(/\/assets\/terms-[^/]+\.js$/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms', exact: true }).click();
    await page.waitForURL('**/terms');
    await page.getByRole('heading', { level: 1, name: /Terms/i }).waitFor();
  });
});
