/**
 * Storefront journeys on the seeded demo catalogue, the catalogue grid: the shop's filters (kept
 * in the URL, sorted by the server), Show more, the filters' counts at every width, the list's
 * empty and error texts, and what the product cards mark. A product and its modal:
 * storefront-product.spec.ts; the landing page's ticker, airdrop progress and live changes:
 * storefront-landing.spec.ts.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatUsd } from '#common/money';
import { categoriesForGender, isLowStock } from '#common/schemas/product';
import { PRODUCT_PAGE_SIZE, PRODUCT_PAGE_SIZE_MAX } from '#common/catalog-query';
import { describeBrowser, useBrowserSuite, waitPastRetries } from '../helpers/browser';
import { card, firstPage, gridTitles, openLandingInBrowser, products } from '../helpers/browser-storefront';

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
});
