/**
 * Storefront journeys on the seeded demo catalogue, one product: its modal (gallery, options, size
 * guide, details, Add to Cart, focus kept inside, Escape), the sizes and Add to Cart on a phone's
 * screen, and shared product URLs, including one that no longer exists.
 */
import { expect, it } from 'vitest';
import { formatUsd } from '#common/money';
import { categoryLabel, genderLabel, isLowStock } from '#common/schemas/product';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { gridTitles, products } from '../helpers/browser-storefront';

describeBrowser('storefront', () => {
  // Seeding renders the demo photos: allow for a busy machine (the hook timeout is 120 s).
  const shop = useBrowserSuite({ seedDemo: true, startTimeoutMs: 110_000 });

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
});
