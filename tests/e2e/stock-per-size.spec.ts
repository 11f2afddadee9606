/**
 * Stock per size (issue 40). The admin opens a product offered in XS, S and M with one Quantity,
 * switches on 'Stock per size', gives each size its units (the Quantity follows their sum) and
 * saves. A shopper then finds XS disabled as sold out in the product modal, 'Only 1 left in S'
 * once S is chosen (the product still says 'Only 5 left in stock!'), and the cart offers only one
 * of S. At 1280 and 360 px, without sideways scroll. SHOTS_DIR set: screenshots of the admin
 * form and the modal go there.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { signInAsAdmin } from '../helpers/browser-auth';
import { seedProductsThroughAdmin } from '../helpers/browser-catalog';

const SHOTS_DIR = process.env.SHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describeBrowser('stock per size', () => {
  const shop = useBrowserSuite();

  for (const width of [1280, 360]) {
    it(`the admin tracks sizes apart; the shopper sees a sold-out size and 'Only N left in M' at ${width} px`, async () => {
      const title = `Per-size Legging ${width}`;
      const [product] = await seedProductsThroughAdmin(shop.server, [
        { title, sizes: ['XS', 'S', 'M'], colors: ['Black'], quantity: 6 },
      ]);
      const id = product!.id;
      const isMobile = width < 400;

      // Admin: switch it on, one quantity per size, the Quantity is their sum.
      const admin = await shop.newPage({ width, isMobile });
      await signInAsAdmin(admin, shop.server, `/admin/products/edit/${id}`);
      await admin.getByRole('heading', { level: 1, name: 'Edit Product' }).waitFor();
      const quantity = admin.getByRole('spinbutton', { name: 'Quantity', exact: true });
      await quantity.waitFor();
      expect(await quantity.inputValue()).toBe('6');
      const toggle = admin.getByRole('switch', { name: /Stock per size/ });
      expect(await toggle.isChecked()).toBe(false);
      await toggle.check({ force: true });
      await admin.getByRole('spinbutton', { name: 'Quantity in XS' }).fill('0');
      await admin.getByRole('spinbutton', { name: 'Quantity in S' }).fill('1');
      await admin.getByRole('spinbutton', { name: 'Quantity in M' }).fill('4');
      await expect.poll(() => quantity.inputValue()).toBe('5');
      expect(await quantity.getAttribute('readonly')).not.toBeNull();
      await admin.getByText('Quantity is the sum of the sizes').scrollIntoViewIfNeeded();
      expect(await overflow(admin)).toBeLessThanOrEqual(0);
      await shot(admin, `stock-per-size-admin-${width}`);
      await admin.getByRole('button', { name: 'Save Changes' }).click();
      await admin.waitForURL((url) => url.pathname === '/admin/products');

      const saved = (await (await fetch(shop.url(`/api/products/${id}`))).json()) as {
        quantity: number;
        sizeStock: Record<string, number> | null;
      };
      expect(saved).toMatchObject({ quantity: 5, sizeStock: { XS: 0, S: 1, M: 4 } });

      // Shopper: XS is sold out and cannot be chosen; S has one left.
      const shopper = await shop.newPage({ width, isMobile });
      await shopper.goto(`/products/${id}`);
      const modal = shopper.getByRole('dialog');
      await modal.getByRole('heading', { name: title }).waitFor();
      await modal.getByText('Only 5 left in stock!').waitFor();
      const sizes = modal.getByRole('group', { name: 'Size' });
      const xs = sizes.getByRole('button', { name: 'XS, sold out' });
      expect(await xs.isDisabled()).toBe(true);
      expect(await xs.getAttribute('aria-disabled')).toBe('true');
      // The other sizes can be chosen once the page is live (until then every option waits).
      await expect.poll(() => sizes.getByRole('button', { name: 'M', exact: true }).isDisabled()).toBe(false);
      await sizes.getByRole('button', { name: 'S', exact: true }).click();
      await modal.getByText('Only 1 left in S').waitFor();
      expect(await overflow(shopper)).toBeLessThanOrEqual(0);
      await shot(shopper, `stock-per-size-modal-${width}`);

      // The cart line takes the size's units: one of S at most.
      const add = modal.getByRole('button', { name: 'Add to Cart' });
      await (isMobile ? add.last() : add.first()).click();
      const drawer = shopper.getByRole('dialog', { name: /Your Cart/ });
      await drawer.getByText('Only 1 left').waitFor();
      const lineQuantity = drawer.getByLabel(`Quantity of ${title}`);
      expect(await lineQuantity.locator('option').count()).toBe(1);
    });
  }
});
