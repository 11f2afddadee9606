/**
 * The storefront's first load (issue 11): server-rendered HTML that holds the page before any
 * script runs, hydration without a second fetch of the same data, the JavaScript a real browser
 * loads on the landing page, products on the first screen, tickers that stop when nobody can see
 * them, and an axe scan of every storefront page.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatUsd } from '#common/money';
import type { Product } from '#common/schemas/product';
import {
  formatPageScripts,
  LANDING_BUDGET_BYTES,
  measureScriptsOn,
  scriptSources,
} from '../../bench/page-weight';
import { mapWithConcurrency } from '#server/lib/concurrency';
import { axeViolations } from '../helpers/axe';
import { describeBrowser, DIST_DIR, useBrowserSuite } from '../helpers/browser';

describeBrowser('storefront first load', () => {
  const shop = useBrowserSuite({ seedDemo: true });

  async function catalogue(): Promise<Product[]> {
    const res = await fetch(shop.url('/api/products'));
    expect(res.status).toBe(200);
    return ((await res.json()) as { products: Product[] }).products;
  }

  it('serves / and a product URL with products, prices, navigation and ticker figures before any script runs', async () => {
    const products = await catalogue();
    const page = await shop.newPage({ javaScriptEnabled: false });
    await page.goto('/');
    const grid = page.getByRole('list', { name: 'Products' });
    const titles = await grid.getByRole('heading', { level: 3 }).allTextContents();
    expect(titles.slice(0, 4)).toEqual(products.slice(0, 4).map((p) => p.title));
    expect(await grid.textContent()).toContain(formatUsd(products[0]!.priceCents));
    expect(await page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('How to Buy');
    // Signed out: Login from the first byte (no skeleton waiting for the session).
    expect(await page.locator('header a[href="/login"]').count()).toBeGreaterThan(0);
    expect(await page.getByRole('region', { name: 'AELO token ticker' }).textContent()).toContain(
      '$0.000420',
    );
    expect(
      await page.getByRole('progressbar', { name: 'Airdrop progress' }).getAttribute('aria-valuenow'),
    ).toBe('21');

    const product = products[1]!;
    await page.goto(`/products/${product.id}`);
    const modal = page.getByRole('dialog', { name: product.title });
    expect(await modal.count()).toBe(1);
    expect(await modal.textContent()).toContain(formatUsd(product.priceCents));
    expect(await page.title()).toContain(product.title);

    // The admin sign-in page too (the back office behind it stays client-rendered).
    await page.goto('/admin/login');
    expect(await page.getByRole('heading', { level: 1, name: 'Admin Login' }).count()).toBe(1);
    expect(await page.getByLabel('Email', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(1);
    // The back office behind it: the server sends a visitor without a session to the sign-in page.
    await page.goto('/admin/products');
    const signIn = new URL(page.url());
    expect(signIn.pathname + signIn.search).toBe('/admin/login?reason=unauthenticated');
    expect((await page.getByRole('alert').textContent())?.trim()).toBe('Not authenticated');
  });

  it('shows Profile in the server-rendered navigation of a signed-in shopper', async () => {
    const page = await shop.newPage();
    const account = { email: `first-load-${Date.now()}@example.test`, password: 'a-long-enough-password-1' };
    const res = await page.request.post('/api/auth/sign-up/email', {
      data: account,
      headers: { origin: shop.server.baseUrl },
    });
    expect(res.status()).toBe(200);
    // Sign-up never signs in: the session comes from signing in.
    const signedIn = await page.request.post('/api/auth/sign-in/email', {
      data: account,
      headers: { origin: shop.server.baseUrl },
    });
    expect(signedIn.status()).toBe(200);
    // The same cookies, no JavaScript: what the server sent.
    const cookies = await page.context().cookies();
    const noScript = await shop.newPage({ javaScriptEnabled: false });
    await noScript.context().addCookies(cookies);
    await noScript.goto('/about');
    expect(await noScript.locator('header a[href="/profile"]').count()).toBeGreaterThan(0);
    expect(await noScript.locator('header a[href="/login"]').count()).toBe(0);
  });

  it('hydrates without fetching the catalogue, the ticker or the session again, and is interactive', async () => {
    const page = await shop.newPage();
    const api: string[] = [];
    page.on('request', (request) => {
      const { pathname, search } = new URL(request.url());
      if (pathname.startsWith('/api/') && !pathname.startsWith('/api/events')) api.push(pathname + search);
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(api).toEqual([]);
    // Hydrated: a filter asks the server for its products.
    await page
      .getByRole('group', { name: 'Gender' })
      .getByRole('button', { name: "Men's", exact: true })
      .click();
    await expect.poll(() => api.some((url) => url.startsWith('/api/products'))).toBe(true);

    // A product URL too: its product came with the page.
    api.length = 0;
    const [product] = await catalogue();
    const productPage = await shop.newPage();
    productPage.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/') && !pathname.startsWith('/api/events')) api.push(pathname);
    });
    await productPage.goto(`/products/${product!.id}`);
    await productPage.waitForLoadState('networkidle');
    await productPage.getByRole('dialog', { name: product!.title }).waitFor();
    expect(api).toEqual([]);
  });

  it('makes the dialogs the server rendered open modal before the code loads, and hydrates them in place', async () => {
    const [, product] = await catalogue();
    const dialogs = (page: Page) =>
      page.evaluate(() =>
        [...document.querySelectorAll('dialog')].map((dialog) => ({
          name: dialog.id || dialog.getAttribute('aria-labelledby'),
          modal: dialog.matches(':modal'),
          // On screen, page dimmed, from the first paint: no entrance for it or its backdrop.
          entrance: [getComputedStyle(dialog), getComputedStyle(dialog, '::backdrop')]
            .map((style) => style.animationName)
            .filter((name) => name !== 'none'),
          // React marks each element it has rendered or adopted.
          hydrated: Object.keys(dialog).some((key) => key.startsWith('__reactFiber$')),
        })),
      );

    // None of the app's code (every script of it empty): the page's own first script has made them
    // modal, the disclaimer of a first visit on top of the product.
    const bare = await shop.newPage({ consent: 'unset' });
    await bare.route('**/assets/*.js', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: '' }),
    );
    // (The frame's own goto: the page's waits for a hydration that cannot come.)
    await bare.mainFrame().goto(shop.url(`/products/${product!.id}`));
    expect(await dialogs(bare)).toEqual([
      { name: 'product-modal-title', modal: true, entrance: [], hydrated: false },
      { name: 'disclaimer', modal: true, entrance: [], hydrated: false },
    ]);
    expect(
      await bare.evaluate(
        () => document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest('dialog')?.id,
      ),
    ).toBe('disclaimer');
    await bare.close();

    // With the code: React adopts both dialogs as the server drew them, removing none.
    const page = await shop.newPage({ consent: 'unset' });
    await page.addInitScript(() => {
      const removed: string[] = [];
      Object.assign(window, { removedDialogs: removed });
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.removedNodes)
            if (node instanceof Element && (node.matches('dialog') || node.querySelector('dialog')))
              removed.push(node.outerHTML.slice(0, 80));
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`/products/${product!.id}`);
    // The modal's own code comes once the page is live (its chunk is not part of the landing's).
    await expect
      .poll(async () => (await dialogs(page)).every((dialog) => dialog.hydrated), { timeout: 10_000 })
      .toBe(true);
    expect(await dialogs(page)).toEqual([
      { name: 'product-modal-title', modal: true, entrance: [], hydrated: true },
      { name: 'disclaimer', modal: true, entrance: [], hydrated: true },
    ]);
    expect(
      await page.evaluate(() => (window as unknown as { removedDialogs: string[] }).removedDialogs),
    ).toEqual([]);
    await page.close();
  });

  it("links the one stylesheet from the document's head: code loaded later asks for no other", async () => {
    const page = await shop.newPage({ width: 1280, height: 800 });
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet' || new URL(request.url()).pathname.endsWith('.css'))
        stylesheets.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const linked = await page
      .locator('head link[rel="stylesheet"]')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
    expect(linked).toEqual([expect.stringMatching(/^\/assets\/styles-[\w-]+\.css$/)]);
    expect(stylesheets).toEqual(linked);
    const sheets = () => page.evaluate(() => document.styleSheets.length);
    const before = await sheets();
    // A product (the modal's chunk), another page, the account's sign-in page.
    const grid = page.getByRole('list', { name: 'Products' });
    await grid.getByRole('link').first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add to Cart' }).waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ', exact: true }).click();
    await page.waitForURL('**/faq');
    await page.waitForLoadState('networkidle');
    // Each would otherwise add the whole stylesheet again: fetched twice, every rule matched twice.
    expect(stylesheets).toEqual(linked);
    expect(await sheets()).toBe(before);
  });

  it('draws every storefront page with the one preloaded font file, cut to the characters the shop writes', async () => {
    const [product] = await catalogue();
    const page = await shop.newPage({ width: 1280, height: 800 });
    const fonts: { url: string; bytes: number }[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'font') return;
      void request.sizes().then((sizes) => fonts.push({ url: request.url(), bytes: sizes.responseBodySize }));
    });
    const preloaded = new Set<string>();
    for (const path of [
      '/',
      `/products/${product!.id}`,
      '/faq',
      '/about',
      '/how-to-buy',
      '/shipping',
      '/privacy',
      '/terms',
      '/login',
    ]) {
      await page.goto(path);
      const href = await page.locator('link[rel="preload"][as="font"]').getAttribute('href');
      expect(href, path).toMatch(/^\/assets\/inter-core-wght-normal-[\w-]+\.woff2$/);
      preloaded.add(new URL(href!, shop.server.baseUrl).href);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForLoadState('networkidle');
      // The page's text is drawn in Inter: its cut face is loaded, and no other face was needed.
      const loaded = await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts]
          .filter((face) => face.status === 'loaded')
          .map((face) => face.unicodeRange);
      });
      expect(loaded, path).toEqual([expect.stringMatching(/^U\+20-7E, U\+A0-FF, /)]);
    }
    expect(preloaded.size).toBe(1);
    await expect.poll(() => fonts.length).toBeGreaterThan(0);
    // Only that file, and 30 KB at most (Inter's whole latin face is 48 KB).
    expect([...new Set(fonts.map((f) => f.url))]).toEqual([...preloaded]);
    for (const font of fonts) expect(font.bytes).toBeLessThanOrEqual(30 * 1024);
  });

  it(`loads at most ${LANDING_BUDGET_BYTES / 1024} KB of gzipped JavaScript on / in a few scripts, with brotli on the wire and no checkout, admin or chart code`, async () => {
    // A first visit: nothing cached, the consent prompts not answered yet (their code loads too).
    const report = await measureScriptsOn(await shop.newPage({ consent: 'unset' }), '/');
    const table = formatPageScripts(report);
    expect(report.scripts.length, table).toBeGreaterThan(0);
    expect(report.totalGzipBytes, table).toBeLessThanOrEqual(LANDING_BUDGET_BYTES);
    // The build's chunk groups (vite.config.ts): left alone, the bundler gave the landing page 53
    // scripts, 30 of them under 1 KB, each with its own import lines and gzip stream.
    expect(report.scripts.length, table).toBeLessThanOrEqual(24);
    expect(
      report.scripts.filter((s) => s.encoding !== 'br' && s.bytes >= 1024).map((s) => s.url),
      table,
    ).toEqual([]);
    // What the scripts are made of, by the build's source maps: nothing that only a click, another
    // area or a payment needs.
    const sources = scriptSources(report, path.join(DIST_DIR, 'web/client'));
    expect(sources.filter((source) => source.includes('node_modules/react-dom/')).length).toBeGreaterThan(0);
    for (const later of [
      /src\/web\/(app\/routes|features)\/admin\//,
      /node_modules\/recharts\//,
      /src\/web\/features\/checkout\/components\/(cart-drawer-panel|payment-outcome)\./,
      /src\/web\/features\/token\/components\/buy-token-modal\./,
      /src\/web\/features\/catalog\/components\/product-modal\./,
      /src\/web\/app\/layouts\/mobile-menu\./,
      /node_modules\/zod\//,
      /node_modules\/qrcode\//,
      /node_modules\/@solana\//,
    ]) {
      expect(
        sources.filter((source) => later.test(source)),
        `${later} is part of the first load\n${table}`,
      ).toEqual([]);
    }
  });

  it('loads the sign-in pages without zod: the account schemas come when the form is first used', async () => {
    for (const path of ['/login', '/admin/login']) {
      const page = await shop.newPage();
      const report = await measureScriptsOn(page, path);
      const schemaChunks = () => report.scripts.filter((s) => /\/assets\/schemas-/.test(s.url));
      expect(schemaChunks(), formatPageScripts(report)).toEqual([]);
      const schemas = page.waitForRequest((request) => /\/assets\/schemas-/.test(request.url()));
      await page.getByLabel('Email', { exact: true }).focus();
      await schemas;
      // The form still checks its fields with the shared schema before it sends anything (the
      // browser's own check lets this address through; the schema wants a dot in the domain).
      const signIns: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/auth/')) signIns.push(request.url());
      });
      await page.getByLabel('Email', { exact: true }).fill('shopper@shop');
      await page.getByLabel('Password', { exact: true }).fill('whatever-password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('Please enter a valid email address').first().waitFor();
      expect(signIns, path).toEqual([]);
    }
  });

  it('shows the first row of products on a laptop screen and the shop within a screen and a half on a phone', async () => {
    const laptop = await shop.newPage({ width: 1280, height: 900 });
    await laptop.goto('/');
    // The test shop runs the demo ledger, whose banner (a live shop has none) sits above the page:
    // the first screen is measured below it.
    const banner = (await laptop.locator('.demo-ledger-banner').boundingBox())?.height ?? 0;
    const firstCard = laptop.getByRole('list', { name: 'Products' }).getByRole('listitem').first();
    const image = (await firstCard.locator('img').first().boundingBox())!;
    expect(image.y).toBeGreaterThan(0);
    expect(image.y + image.height - banner).toBeLessThanOrEqual(900);
    const [first] = await catalogue();
    const price = (await firstCard.getByText(formatUsd(first!.priceCents)).first().boundingBox())!;
    expect(price.y + price.height - banner).toBeLessThanOrEqual(900);
    // The airdrop progress stays on the first screen.
    const progress = (await laptop.getByRole('region', { name: 'Airdrop progress' }).boundingBox())!;
    expect(progress.y + progress.height - banner).toBeLessThanOrEqual(900);

    const phone = await shop.newPage({ width: 360, height: 800, isMobile: true });
    await phone.goto('/');
    const shopTop = await phone.locator('#shop').evaluate((el) => el.getBoundingClientRect().top);
    expect(shopTop).toBeLessThanOrEqual(1200);
  });

  it('keeps the tickers still under a dialog, out of sight, and with reduced motion, and loops nothing then', async () => {
    const trackStates = (page: Page) =>
      page.locator('[data-marquee-track]').evaluateAll((tracks) =>
        tracks.map(
          (t) =>
            t
              .getAnimations()
              .map((a) => a.playState)
              .join(',') || 'none',
        ),
      );
    // A first visit: the disclaimer is open over the page, and the tickers behind it stand still.
    const first = await shop.newPage({ reducedMotion: 'no-preference', consent: 'unset' });
    await first.goto('/');
    await first.getByRole('dialog', { name: 'Important Disclaimer' }).waitFor();
    expect(await trackStates(first)).toEqual(['paused', 'paused']);
    await first.getByRole('button', { name: 'I Understand' }).click();
    await expect.poll(() => trackStates(first)).toEqual(['running', 'running']);
    // Scrolled away (or behind the fixed header): paused again.
    await first.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => trackStates(first)).toEqual(['paused', 'paused']);
    await first.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => trackStates(first)).toEqual(['running', 'running']);

    const still = await shop.newPage({ reducedMotion: 'reduce' });
    await still.goto('/');
    expect(await trackStates(still)).toEqual(['none', 'none']);
    // A spinner or a skeleton runs once and stops instead of looping every millisecond.
    const loops = await still.evaluate(() => {
      const spinner = document.createElement('div');
      spinner.className = 'animate-spin';
      document.body.append(spinner);
      return getComputedStyle(spinner).animationIterationCount;
    });
    expect(loops).toBe('1');
  });

  it('has no serious or critical axe violation on any storefront page', async () => {
    const [product] = await catalogue();
    const found: string[] = [];
    const pages = [
      ['/', 1280],
      ['/', 360],
      [`/products/${product!.id}`, 1280],
      ['/about', 1280],
      ['/faq', 1280],
      ['/shipping', 1280],
      ['/terms', 1280],
      ['/privacy', 1280],
      ['/login', 1280],
      ['/how-to-buy', 1280],
      ['/success', 1280],
      ['/no-such-page', 1280],
    ] as const;
    shop.allowConsoleErrors(/status of 404 .*\/no-such-page/);
    // A few pages at once: each mostly waits on the network and the idle timer.
    await mapWithConcurrency(pages, 3, async ([path, width]) => {
      const page = await shop.newPage({ width, height: 900 });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      for (const violation of await axeViolations(page)) found.push(`${path} @${width}px: ${violation}`);
      await page.close();
    });
    expect(found.sort()).toEqual([]);
  });
});
