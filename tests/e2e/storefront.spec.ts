/**
 * Storefront journeys on the seeded demo catalogue: the shop's filters, product cards and modal,
 * Add to Cart, shareable product URLs, the token ticker and the airdrop progress, and an admin's
 * change reaching an open page without a reload.
 */
import type { Locator, Page, Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatUsd } from '#common/money';
import { LOCAL_MARKET } from '#common/schemas/market';
import {
  categoriesForGender,
  categoryLabel,
  genderLabel,
  isLowStock,
  type Product,
  type ProductPage,
} from '#common/schemas/product';
import { PRODUCT_PAGE_SIZE, PRODUCT_PAGE_SIZE_MAX } from '#common/catalog-query';
import { describeBrowser, useBrowserSuite, waitPastRetries, type BrowserSuite } from '../helpers/browser';

/** The first page of the product list, as the grid shows it first. */
async function firstPage(shop: BrowserSuite, query = ''): Promise<ProductPage> {
  const res = await fetch(shop.url(`/api/products${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as ProductPage;
}

async function products(shop: BrowserSuite, query = ''): Promise<Product[]> {
  return (await firstPage(shop, query)).products;
}

async function gridTitles(page: Page): Promise<string[]> {
  const grid = page.getByRole('list', { name: 'Products' });
  await grid.waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"] ul[aria-label="Products"]'));
  return grid.getByRole('heading', { level: 3 }).allTextContents();
}

/** Presses Show more and waits until the grid holds `count` products. */
async function showMore(page: Page, count: number): Promise<void> {
  const more = page.getByRole('button', { name: 'Show more' });
  await more.scrollIntoViewIfNeeded();
  await more.click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('ul[aria-label="Products"] > li').length === n,
    count,
  );
}

/** Answers the product list with no products where `match` holds for its query. */
async function answerNoProducts(page: Page, match: (search: URLSearchParams) => boolean): Promise<void> {
  await page.route(
    (url) => url.pathname === '/api/products' && match(url.searchParams),
    (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ products: [], total: 0, nextCursor: null }),
      }),
  );
}

/**
 * Opens the landing page by a link from /about, so its market and product requests come from the
 * browser (where page.route answers them) rather than from the server's render of `/`.
 */
async function openLandingInBrowser(page: Page) {
  await page.goto('/about');
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await page.locator('header a[href="/"]').first().click();
  await page.waitForURL((url) => url.pathname === '/');
}

function card(page: Page, title: string) {
  return page
    .getByRole('list', { name: 'Products' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

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

  it('filters the catalogue by gender and category', async () => {
    const { products: all, total } = await firstPage(shop);
    expect(total).toBeGreaterThan(20);
    const page = await shop.newPage();
    await page.goto('/');
    expect(await gridTitles(page)).toEqual(all.map((p) => p.title));

    const gender = page.getByRole('group', { name: 'Gender' });
    await gender.getByRole('button', { name: "Women's", exact: true }).click();
    const womens = await products(shop, '?gender=womens');
    await page.waitForFunction(
      (n) => document.querySelectorAll('ul[aria-label="Products"] > li').length === n,
      womens.length,
    );
    expect(await gridTitles(page)).toEqual(womens.map((p) => p.title));
    expect(
      await gender.getByRole('button', { name: "Women's", exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');

    // The category filter offers the chosen gender's categories, labelled as the spec lists them,
    // each with how many products it would show (the server's count of that filter).
    const category = page.getByLabel('Category');
    const womensTotal = (await firstPage(shop, '?gender=womens')).total;
    const counts = await Promise.all(
      categoriesForGender('womens').map(
        async (c) => (await firstPage(shop, `?gender=womens&category=${c.value}`)).total,
      ),
    );
    expect(counts.some((n) => n > 0)).toBe(true);
    await expect
      .poll(() => category.locator('option').allTextContents())
      .toEqual([
        `All categories (${womensTotal})`,
        ...categoriesForGender('womens').map((c, i) => `${c.label} (${counts[i]})`),
      ]);
    // A category with nothing in it cannot be chosen.
    for (const [i, c] of categoriesForGender('womens').entries()) {
      expect(await category.locator(`option[value="${c.value}"]`).isDisabled()).toBe(counts[i] === 0);
    }
    await category.selectOption('womens-leggings');
    const leggings = await products(shop, '?gender=womens&category=womens-leggings');
    expect(leggings.length).toBeGreaterThan(0);
    await page.waitForFunction(
      (n) => document.querySelectorAll('ul[aria-label="Products"] > li').length === n,
      leggings.length,
    );
    expect(await gridTitles(page)).toEqual(leggings.map((p) => p.title));

    // Men's: the women's category no longer applies and is dropped.
    await gender.getByRole('button', { name: "Men's", exact: true }).click();
    // The click's state change lands on a later render: poll for it.
    await expect.poll(() => category.inputValue(), { timeout: 10_000 }).toBe('');
    const mens = await products(shop, '?gender=mens');
    await page.waitForFunction(
      (n) => document.querySelectorAll('ul[aria-label="Products"] > li').length === n,
      mens.length,
    );
    expect(await gridTitles(page)).toEqual(mens.map((p) => p.title));
    await category.selectOption('mens-shorts');
    const shorts = await products(shop, '?gender=mens&category=mens-shorts');
    await page.waitForFunction(
      (n) => document.querySelectorAll('ul[aria-label="Products"] > li').length === n,
      shorts.length,
    );
    expect(await gridTitles(page)).toEqual(shorts.map((p) => p.title));

    await gender.getByRole('button', { name: 'All', exact: true }).click();
    expect(await category.inputValue()).toBe('mens-shorts');
    await category.selectOption('');
    await page.waitForFunction(
      (n) => document.querySelectorAll('ul[aria-label="Products"] > li').length === n,
      all.length,
    );
  });

  it('keeps every filter chosen in quick succession, even while the page is still rendering the last', async () => {
    const page = await shop.newPage();
    await page.goto('/');
    await gridTitles(page);
    // A slow phone: each change renders for a while after the address has changed.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    await page
      .getByRole('group', { name: 'Gender' })
      .getByRole('button', { name: "Women's", exact: true })
      .click();
    await page.getByLabel('Size').selectOption('M');
    await page.getByLabel('Sort by').selectOption('price-asc');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.waitForURL((url) => url.search === '?gender=womens&size=M&sort=price-asc');
    await expect.poll(() => page.getByLabel('Size').inputValue()).toBe('M');
    expect(
      await page
        .getByRole('group', { name: 'Gender' })
        .getByRole('button', { name: "Women's", exact: true })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('keeps filters and order in the URL: shareable, restored by Back, sorted by the server', async () => {
    const page = await shop.newPage();
    await page.goto('/');
    await gridTitles(page);
    await page.evaluate(() => window.scrollTo(0, 250));
    const expectGrid = async (query: string) => {
      const expected = (await products(shop, query)).map((p) => p.title);
      await expect.poll(() => gridTitles(page)).toEqual(expected);
      return expected;
    };

    await page
      .getByRole('group', { name: 'Gender' })
      .getByRole('button', { name: "Women's", exact: true })
      .click();
    await page.waitForURL((url) => url.search === '?gender=womens');
    await page.getByLabel('Size').selectOption('M');
    await page.waitForURL((url) => url.search === '?gender=womens&size=M');
    await page.getByLabel('Sort by').selectOption('price-asc');
    await page.waitForURL((url) => url.search === '?gender=womens&size=M&sort=price-asc');
    const sorted = await expectGrid('?gender=womens&size=M&sort=price-asc');
    expect(sorted.length).toBeGreaterThan(1);
    const prices = (await products(shop, '?gender=womens&size=M&sort=price-asc')).map((p) => p.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // The page stays where the shopper is (no jump to the top on a filter change).
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(200);

    // Back undoes one change at a time, the controls follow (the address changes first; the page
    // renders the navigation in a transition right after).
    await page.goBack();
    await page.waitForURL((url) => url.search === '?gender=womens&size=M');
    await expect.poll(() => page.getByLabel('Sort by').inputValue()).toBe('newest');
    await expectGrid('?gender=womens&size=M');
    await page.goBack();
    await page.waitForURL((url) => url.search === '?gender=womens');
    await expect.poll(() => page.getByLabel('Size').inputValue()).toBe('');
    await expectGrid('?gender=womens');

    // A shared link opens with its filters, rendered by the server.
    const shared = await shop.newPage();
    await shared.goto('/?gender=womens&size=M&sort=price-desc');
    expect(await shared.getByLabel('Size').inputValue()).toBe('M');
    expect(await shared.getByLabel('Sort by').inputValue()).toBe('price-desc');
    expect(
      await shared
        .getByRole('group', { name: 'Gender' })
        .getByRole('button', { name: "Women's", exact: true })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await gridTitles(shared)).toEqual(
      (await products(shop, '?gender=womens&size=M&sort=price-desc')).map((p) => p.title),
    );
  });

  it(`sends the first ${PRODUCT_PAGE_SIZE} products in the HTML and the next on Show more, focus on the first new one`, async () => {
    const all = (await firstPage(shop, `?limit=${PRODUCT_PAGE_SIZE_MAX}`)).products.map((p) => p.title);
    expect(all.length).toBeGreaterThan(2 * PRODUCT_PAGE_SIZE);
    // The server's HTML holds the first page only, and says how many there are.
    const noScript = await shop.newPage({ javaScriptEnabled: false });
    await noScript.goto('/');
    expect(await noScript.getByRole('list', { name: 'Products' }).getByRole('listitem').count()).toBe(
      PRODUCT_PAGE_SIZE,
    );
    expect(await noScript.getByText(`Showing ${PRODUCT_PAGE_SIZE} of ${all.length}`).count()).toBe(1);

    const page = await shop.newPage();
    const lists: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/products') lists.push(url.search);
    });
    await page.goto('/');
    expect(await gridTitles(page)).toEqual(all.slice(0, PRODUCT_PAGE_SIZE));
    await showMore(page, 2 * PRODUCT_PAGE_SIZE);
    // Keyboard and screen-reader users carry on from the first product the page brought.
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('li')?.querySelector('h3')?.textContent),
      )
      .toBe(all[PRODUCT_PAGE_SIZE]);
    expect(await page.getByRole('status').filter({ hasText: 'products' }).first().textContent()).toBe(
      `${2 * PRODUCT_PAGE_SIZE} of ${all.length} products`,
    );
    await showMore(page, all.length);
    // Every product once, in the server's order; at the end Show more is gone.
    expect(await gridTitles(page)).toEqual(all);
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    // One request per Show more, each with the cursor the page before gave (the first page came with the HTML).
    expect(lists).toHaveLength(2);
    expect(lists.every((search) => new URLSearchParams(search).has('cursor'))).toBe(true);
  });

  it('carries on when the server no longer reads the cursor of the loaded pages (a new version of it)', async () => {
    const all = (await firstPage(shop, `?limit=${PRODUCT_PAGE_SIZE_MAX}`)).products.map((p) => p.title);
    const page = await shop.newPage();
    // The first Show more gets the server's own answer to a cursor it cannot read.
    let rejected = 0;
    await page.route('**/api/products?*', async (route) => {
      const url = new URL(route.request().url());
      if (!url.searchParams.has('cursor') || rejected > 0) return route.continue();
      rejected += 1;
      url.searchParams.set('cursor', 'made-by-an-earlier-version');
      const answer = await route.fetch({ url: url.toString() });
      expect(answer.status()).toBe(400);
      await route.fulfill({ response: answer });
    });
    shop.allowConsoleErrors(/status of 400/);
    await page.goto('/');
    await showMore(page, 2 * PRODUCT_PAGE_SIZE);
    expect(rejected).toBe(1);
    expect(await gridTitles(page)).toEqual(all.slice(0, 2 * PRODUCT_PAGE_SIZE));
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: 'Failed to load products. Please try again later.' })
        .count(),
    ).toBe(0);
  });

  it('shows every filter with its count whole at 360, 1024 and 1280 px, nothing past the edge', async () => {
    for (const width of [360, 1024, 1280]) {
      const page = await shop.newPage({ width, height: 800 });
      await page.goto('/?gender=womens&size=XL&sort=price-asc');
      await expect
        .poll(() => page.getByLabel('Size').locator('option:checked').textContent())
        .toMatch(/^Size XL \(\d+\)$/);
      // Each select's chosen text fits between its padding and the chevron.
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('select')].flatMap((select) => {
          const style = getComputedStyle(select);
          const context = document.createElement('canvas').getContext('2d')!;
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const text = select.selectedOptions[0]?.textContent ?? '';
          const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return context.measureText(text).width > room ? [`${text} in ${room}px`] : [];
        }),
      );
      expect(clipped, `at ${width} px`).toEqual([]);
      const right = await page.evaluate(() =>
        Math.max(...[...document.querySelectorAll('select')].map((s) => s.getBoundingClientRect().right)),
      );
      expect(right, `at ${width} px`).toBeLessThanOrEqual(width);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `at ${width} px`,
      ).toBeLessThanOrEqual(width);
      await page.close();
    }
  });

  it('fits a product offered in every size into a 360 px screen, nothing scrolling sideways', async () => {
    const all = await products(shop);
    const product = all.find((p) => p.quantity > 0 && p.sizes.length >= 5)!;
    expect(product, 'a demo product in five sizes').toBeDefined();
    const page = await shop.newPage({ width: 360, height: 800, isMobile: true });
    await page.goto(`/products/${product.id}`);
    const dialog = page.getByRole('dialog', { name: product.title });
    await dialog.getByRole('button', { name: product.sizes[4]!, exact: true }).waitFor();
    const { client, scroll } = await dialog.evaluate((d) => ({
      client: d.clientWidth,
      scroll: d.scrollWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
    // The price and Add to Cart end inside the dialog.
    const right = (await dialog.boundingBox())!.x + (await dialog.boundingBox())!.width;
    for (const part of [
      page.getByTestId('add-to-cart-bar').getByRole('button', { name: 'Add to Cart' }),
      dialog.getByRole('button', { name: product.sizes[4]!, exact: true }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(right);
    }
  });

  it('keeps the chosen size and colour and Add to Cart in view on a phone while the shopper reads', async () => {
    const all = await products(shop);
    const product = all.find((p) => p.quantity > 0 && p.sizes.length > 1 && p.description.length > 100)!;
    const page = await shop.newPage({ width: 360, height: 800, isMobile: true });
    await page.goto(`/products/${product.id}`);
    const dialog = page.getByRole('dialog', { name: product.title });
    const bar = page.getByTestId('add-to-cart-bar');
    await bar.waitFor();
    // The server's HTML has the modal open; the app re-opens it as a modal (hidden for a moment).
    const inView = async () => {
      const box = await bar.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 800;
    };
    await expect.poll(inView).toBe(true);
    expect(await bar.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(true);
    const size = product.sizes[1]!;
    await dialog.getByRole('button', { name: size, exact: true }).click();
    for (const top of [300, 700, 5000]) {
      await dialog.evaluate((d, y) => d.scrollTo(0, y), top);
      await expect.poll(inView).toBe(true);
    }
    expect(await bar.textContent()).toContain(`Size ${size}`);
    expect(await bar.textContent()).toContain(formatUsd(product.priceCents));
    await bar.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('dialog', { name: /Your Cart/ }).waitFor();

    // On a laptop the button sits in the page's flow, and the bar is not shown.
    const wide = await shop.newPage({ width: 1280, height: 900 });
    await wide.goto(`/products/${product.id}`);
    const wideDialog = wide.getByRole('dialog', { name: product.title });
    await wideDialog.getByRole('button', { name: 'Add to Cart' }).waitFor();
    expect(await wide.getByTestId('add-to-cart-bar').isVisible()).toBe(false);
  });

  it('shows the empty and error texts of the product list', async () => {
    shop.allowConsoleErrors(/status of 500/);
    const page = await shop.newPage();
    // A filter that matches nothing: the spec's empty text.
    await answerNoProducts(page, (search) => search.get('gender') === 'mens');
    await page.goto('/');
    await gridTitles(page);
    await page
      .getByRole('group', { name: 'Gender' })
      .getByRole('button', { name: "Men's", exact: true })
      .click();
    await page.getByText('No products found matching your criteria.').waitFor();
    // A size that nobody has listed is no match either, not a load error.
    const sizeOnly = await shop.newPage();
    await answerNoProducts(sizeOnly, (search) => search.get('size') === 'XS');
    await sizeOnly.goto('/');
    await gridTitles(sizeOnly);
    await sizeOnly.getByLabel('Size', { exact: true }).selectOption('XS');
    await sizeOnly.getByText('No products found matching your criteria.').waitFor();
    expect(await sizeOnly.getByText('Failed to load products. Please try again later.').count()).toBe(0);
    // Clear filters (a link, so it works before the page is live too) brings the whole shop back.
    await sizeOnly.getByRole('link', { name: 'Clear filters' }).click();
    await sizeOnly.waitForURL((url) => url.pathname === '/' && url.search === '');
    expect((await gridTitles(sizeOnly)).length).toBeGreaterThan(0);
    expect(await sizeOnly.getByLabel('Size', { exact: true }).inputValue()).toBe('');

    // No products at all is the load error (spec §8), as is a failing request.
    const empty = await shop.newPage();
    await answerNoProducts(empty, () => true);
    await openLandingInBrowser(empty);
    await empty
      .getByRole('alert')
      .filter({ hasText: 'Failed to load products. Please try again later.' })
      .waitFor();

    const failing = await shop.newPage();
    await failing.clock.install();
    await failing.route(
      (url) => url.pathname === '/api/products',
      (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"error":{"code":"INTERNAL","message":"boom"}}',
        }),
    );
    await openLandingInBrowser(failing);
    await waitPastRetries(
      failing,
      failing.getByRole('alert').filter({ hasText: 'Failed to load products. Please try again later.' }),
    );
    // The rest of the page is unharmed.
    expect(
      await failing.getByRole('heading', { level: 2, name: 'Rewards, claimed automatically' }).count(),
    ).toBe(1);
  });

  it('marks sold-out and low-stock products and counts extra photos on the cards', async () => {
    const all = await products(shop);
    const soldOut = all.find((p) => p.quantity === 0)!;
    const low = all.find((p) => isLowStock(p.quantity))!;
    const plain = all.find((p) => p.quantity > 5 && p.images.length === 1)!;
    const multi = all.find((p) => p.images.length >= 3)!;
    expect([soldOut, low, plain, multi].every(Boolean)).toBe(true);

    const page = await shop.newPage();
    await page.goto('/');
    await gridTitles(page);

    const soldOutBadge = card(page, soldOut.title).getByText('Sold Out', { exact: true });
    expect(await soldOutBadge.isVisible()).toBe(true);
    // Shown as the spec writes it (no CSS text-transform).
    expect(await soldOutBadge.innerText()).toBe('Sold Out');
    expect(await card(page, low.title).getByText(`Only ${low.quantity} left in stock!`).isVisible()).toBe(
      true,
    );
    expect(
      await card(page, plain.title)
        .getByText(/left in stock|Sold Out/)
        .count(),
    ).toBe(0);
    expect(
      await card(page, multi.title)
        .getByText(`+${multi.images.length - 1} more`)
        .isVisible(),
    ).toBe(true);
    expect(
      await card(page, plain.title)
        .getByText(/\+\d+ more/)
        .count(),
    ).toBe(0);

    // Card content: title, price (and original price), description; images done right.
    const lowCard = card(page, low.title);
    const text = (await lowCard.textContent()) ?? '';
    expect(text).toContain(formatUsd(low.priceCents));
    if (low.originalPriceCents)
      expect(await lowCard.locator('s').textContent()).toContain(formatUsd(low.originalPriceCents));
    expect(text).toContain(low.description.slice(0, 30));
    const img = lowCard.locator('img');
    expect(await img.getAttribute('alt')).toBe(low.title);
    expect(await img.getAttribute('loading')).toBe('lazy');
    expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0);
    expect(Number(await img.getAttribute('height'))).toBeGreaterThan(0);
    expect(await img.getAttribute('srcset')).toMatch(/\.webp \d+w/);
  });

  it('opens a product in a modal with its gallery, options, size guide and details, and adds it to the cart', async () => {
    const all = await products(shop);
    const product = all.find(
      (p) =>
        p.images.length >= 3 && p.sizes.length >= 3 && p.colors.length >= 2 && p.quantity > 0 && p.sizeGuide,
    )!;
    expect(product).toBeDefined();
    const page = await shop.newPage();
    await page.goto('/');
    await gridTitles(page);
    const header = page.getByRole('banner');
    await header.getByRole('button', { name: 'Cart, 0 items' }).waitFor();

    await page.getByRole('link', { name: product.title, exact: true }).click();
    const modal = page.getByRole('dialog', { name: product.title });
    await modal.waitFor();
    await page.waitForURL((url) => url.pathname === `/products/${product.id}`);
    expect(await page.title()).toContain(product.title);

    // Gallery: previous / next wrap around; thumbnails in 4 columns.
    const count = product.images.length;
    const counter = modal.getByText(new RegExp(`^\\d / ${count}$`));
    expect(await counter.textContent()).toBe(`1 / ${count}`);
    expect(await modal.getByRole('img').first().getAttribute('loading')).toBe('eager');
    await modal.getByRole('button', { name: 'Next image' }).click();
    expect(await counter.textContent()).toBe(`2 / ${count}`);
    await modal.getByRole('button', { name: 'Previous image' }).click();
    await modal.getByRole('button', { name: 'Previous image' }).click();
    expect(await counter.textContent()).toBe(`${count} / ${count}`);
    const thumbs = modal.getByRole('list', { name: 'Photos' });
    expect(await thumbs.getByRole('button').count()).toBe(count);
    expect(await thumbs.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length)).toBe(4);
    await thumbs.getByRole('button', { name: `Show photo 2 of ${count}` }).click();
    expect(await counter.textContent()).toBe(`2 / ${count}`);
    expect(
      await thumbs.getByRole('button', { name: `Show photo 2 of ${count}` }).getAttribute('aria-current'),
    ).toBe('true');

    // Price with the struck-through original price.
    const modalText = (await modal.textContent()) ?? '';
    expect(modalText).toContain(formatUsd(product.priceCents));
    if (product.originalPriceCents) {
      expect(await modal.locator('s').textContent()).toContain(formatUsd(product.originalPriceCents));
    }

    // Sizes in a 5-column grid, colours, the size guide with only the measures present.
    const sizes = modal.getByRole('group', { name: 'Size' });
    expect(await sizes.getByRole('button').allTextContents()).toEqual(product.sizes);
    expect(
      await sizes
        .locator('> div')
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length),
    ).toBe(5);
    expect(await modal.getByRole('group', { name: 'Color' }).getByRole('button').allTextContents()).toEqual(
      product.colors,
    );
    const guide = modal.getByRole('table', { name: 'Size guide (inches)' });
    const present = (['waist', 'hip', 'bust'] as const).filter((m) => product.sizeGuide?.[m]?.length);
    expect(await guide.getByRole('columnheader').allTextContents()).toEqual([
      'Size',
      ...present.map((m) => m.charAt(0).toUpperCase() + m.slice(1)),
    ]);
    expect(await guide.getByRole('row').count()).toBe(product.sizes.length + 1);

    // Details list.
    const details = modal.locator('dl');
    const detailText = (await details.textContent()) ?? '';
    expect(detailText).toContain(categoryLabel(product.category));
    expect(detailText).toContain(genderLabel(product.gender));
    expect(detailText).toContain(`${product.shippingWeight} lbs`);

    // Add to Cart needs a size and a colour.
    const add = modal.getByRole('button', { name: 'Add to Cart' });
    expect(await add.isDisabled()).toBe(true);
    await modal.getByText('Choose a size and a color to add this to your cart.').waitFor();
    const size = product.sizes[1]!;
    const color = product.colors[1]!;
    await sizes.getByRole('button', { name: size, exact: true }).click();
    expect(await sizes.getByRole('button', { name: size, exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await modal.getByText('Choose a color to add this to your cart.').waitFor();
    expect(await add.isDisabled()).toBe(true);
    await modal
      .getByRole('group', { name: 'Color' })
      .getByRole('button', { name: color, exact: true })
      .click();
    expect(await add.isEnabled()).toBe(true);
    await add.click();

    await modal.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/');
    await header.getByRole('button', { name: 'Cart, 1 item' }).waitFor();
    const stored = await page.evaluate(() => localStorage.getItem('aelo-cart'));
    const items = (JSON.parse(stored ?? '{}') as { state?: { items?: unknown[] } }).state?.items ?? [];
    expect(items).toEqual([
      expect.objectContaining({
        productId: product.id,
        selectedSize: size,
        selectedColor: color,
        quantity: 1,
      }),
    ]);
  });

  it('keeps focus inside the product modal and closes it on Escape, back on the landing page', async () => {
    const all = await products(shop);
    const product = all.find((p) => p.quantity > 0)!;
    const page = await shop.newPage();
    await page.goto('/#shop');
    await gridTitles(page);
    await page.getByRole('link', { name: product.title, exact: true }).click();
    const modal = page.getByRole('dialog', { name: product.title });
    await modal.waitFor();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i % 4 === 3 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/');
    // Focus is back on the card that opened it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(product.title);
    expect(await page.title()).not.toContain(product.title);
  });

  it('opens a shared product URL with its modal over the landing page and closes to / without a reload', async () => {
    const all = await products(shop);
    const soldOut = all.find((p) => p.quantity === 0)!;
    const page = await shop.newPage();
    await page.goto(`/products/${soldOut.id}`);
    const modal = page.getByRole('dialog', { name: soldOut.title });
    await modal.waitFor();
    expect(await page.title()).toContain(soldOut.title);
    expect(
      await page.getByRole('heading', { level: 2, name: 'Shop the collection', includeHidden: true }).count(),
    ).toBe(1);

    // Sold out: the message instead of the options.
    await modal.getByText('This item is currently sold out.').waitFor();
    expect(await modal.getByRole('button', { name: 'Add to Cart' }).count()).toBe(0);
    expect(await modal.getByRole('group', { name: 'Size' }).count()).toBe(0);

    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/');
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);

    // A low-stock product says so in its modal too.
    const low = all.find((p) => isLowStock(p.quantity))!;
    await page.getByRole('link', { name: low.title, exact: true }).click();
    await page
      .getByRole('dialog', { name: low.title })
      .getByText(`Only ${low.quantity} left in stock!`)
      .waitFor();
  });

  it('says so when a shared product no longer exists', async () => {
    shop.allowConsoleErrors(/status of 404/);
    const page = await shop.newPage();
    await page.goto('/products/00000000-0000-4000-8000-000000000000');
    const modal = page.getByRole('dialog', { name: 'Product not found' });
    await modal.waitFor();
    await modal.getByRole('button', { name: 'Back to the shop' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

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
