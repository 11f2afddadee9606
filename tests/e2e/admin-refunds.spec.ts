/**
 * The order views' side of refunds on the real built server: the admin's Refund dialog
 * (partial amount in dollars, reason required, the remaining refundable shown, validation on the
 * fields, keyboard: Escape closes it), the refund listed on the admin's order card with its net
 * figures, and the guest order page with its AELO discount line and the refund.
 *
 * The order is inserted straight into the server's PostgreSQL (an order exists only once a payment
 * is confirmed): the journey runs when TEST_DATABASE_URL is set and prints one 'SKIPPED:' line
 * otherwise. With SCREENSHOTS_DIR set it saves the card and the guest page at 360 and 1280 px.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '#server/db/client';
import { signLink } from '#server/lib/signed-links';
import { createOrder } from '../factories/order';
import { describeBrowser, useBrowserSuite, type ShopServerOptions } from '../helpers/browser';
import { axeViolations } from '../helpers/axe';
import { signInAsAdmin, signUpCustomer } from '../helpers/browser-auth';
import { seedProductsThroughAdmin } from '../helpers/browser-catalog';
import { createScratchDatabase, TEST_DATABASE_URL, type ScratchDatabase } from '../helpers/databases';
import { openTestDatabase } from '../helpers/test-app';

const hasPostgres = TEST_DATABASE_URL !== undefined;
const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR;
const AUTH_SECRET = randomBytes(32).toString('hex');

if (!hasPostgres) {
  console.warn(
    "SKIPPED: admin refund journey (TEST_DATABASE_URL is not set; it inserts an order into the server's PostgreSQL)",
  );
}

async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

async function screenshots(page: Page, name: string, target?: Locator): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const before = page.viewportSize();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const file = path.join(SCREENSHOTS_DIR, `${name}-${width}.png`);
    if (target) await target.screenshot({ path: file, animations: 'disabled' });
    else await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  }
  if (before) await page.setViewportSize(before);
}

/**
 * The confirmed crypto payment behind an order made by the factory (an order exists only once its
 * payment is confirmed): amounts are subtotal, shipping, discount and total in cents.
 */
async function payOrder(
  db: Database['db'],
  orderId: string,
  paid: { method: 'sol' | 'aelo'; amounts: [number, number, number, number]; cryptoAmount: string },
): Promise<{ id: string }> {
  const [subtotal, shipping, discount, total] = paid.amounts;
  const payment = await db
    .insertInto('payments')
    .values({
      reference: `ref-${randomBytes(12).toString('hex')}`,
      method: paid.method,
      status: 'confirmed',
      subtotal_cents: subtotal,
      shipping_cents: shipping,
      discount_cents: discount,
      amount_cents: total,
      crypto_amount: paid.cryptoAmount,
      lines: JSON.stringify([]),
      shipping_info: JSON.stringify({}),
      expires_at: new Date(Date.now() + 3_600_000),
      confirmed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('orders').set({ payment_id: payment.id }).where('id', '=', orderId).execute();
  return payment;
}

describeBrowser('admin refunds in the order views', () => {
  const serverOptions: ShopServerOptions = { env: { AUTH_SECRET } };
  let scratch: ScratchDatabase | undefined;
  let database: Database | undefined;

  beforeAll(async () => {
    if (!hasPostgres) return;
    scratch = await createScratchDatabase('postgres');
    serverOptions.databaseUrl = scratch.url;
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  const shop = useBrowserSuite(serverOptions);

  /** Order lines keep a product photo: ones the server really stored. */
  let images: string[] = [];
  beforeAll(async () => {
    if (!scratch) return;
    const products = await seedProductsThroughAdmin(shop.server, [
      { title: 'Align Legging', priceCents: 3_400 },
      { title: 'Energy Bra', category: 'womens-bras', priceCents: 1_700 },
    ]);
    images = products.map((p) => p.images[0]!.path);
    database = await openTestDatabase(scratch, { poolSize: 2 });
  });

  it.skipIf(!hasPostgres)(
    'refunds part of an AELO order from its card; the card and the guest page show the discount and the refund',
    async () => {
      const db = database!.db;
      const payer = getAddressDecoder().decode(randomBytes(32));
      const tag = randomBytes(3).toString('hex');
      // An AELO order: 68.00 of items, 10% off, 61.20 charged, paid from a wallet.
      const order = await createOrder(db, {
        email: `refund-${tag}@example.com`,
        firstName: 'Rae',
        lastName: 'Fund',
        paymentMethod: 'aelo',
        transactionSignature: `PaySig${tag}${'1'.repeat(70)}`.slice(0, 88),
        items: [
          { title: `Align Legging ${tag}`, image: images[0], category: 'womens-leggings', priceCents: 3400 },
          {
            title: `Energy Bra ${tag}`,
            image: images[1],
            category: 'womens-bras',
            priceCents: 1700,
            quantity: 2,
          },
        ],
        discountCents: 680,
      });
      const payment = await payOrder(db, order.id, {
        method: 'aelo',
        amounts: [6800, 0, 680, 6120],
        cryptoAmount: '61200000',
      });
      await db
        .insertInto('payment_transfers')
        .values({
          payment_id: payment.id,
          signature: `Transfer${tag}${'2'.repeat(70)}`.slice(0, 88),
          payer,
          amount: '61200000',
          applied_amount: '61200000',
        })
        .execute();

      // A refund the worker already carried out: 5.00 back to the paying wallet, on the chain.
      const earlierSignature = `RefundSig${tag}${'3'.repeat(80)}`.slice(0, 88);
      await db
        .insertInto('refunds')
        .values({
          payment_id: payment.id,
          order_id: order.id,
          method: 'aelo',
          kind: 'manual',
          scope: 'order',
          status: 'succeeded',
          amount_cents: 500,
          crypto_amount: '5000000',
          destination: payer,
          reason: 'Late delivery',
          transaction_signature: earlierSignature,
          created_at: new Date(Date.now() - 3_600_000),
          completed_at: new Date(Date.now() - 3_500_000),
        })
        .execute();

      const page = await shop.newPage();
      await signInAsAdmin(page, shop.server, '/admin/orders');
      await page.getByRole('searchbox', { name: 'Search orders' }).fill(order.id);
      const card = page.getByRole('article', { name: `Order ${order.id.slice(0, 8)}` });
      await card.getByRole('button', { expanded: false }).click();
      expect(await textOf(card.locator('dl[data-order-totals]'))).toBe(
        'Subtotal$68.00ShippingFreeAELO discount (10% off)−$6.80Total$61.20Refunded−$5.00Net paid$56.20',
      );

      // The dialog: partial, validated on its fields, the refundable shown.
      await card.getByRole('button', { name: 'Refund', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Refund order #${order.id.slice(0, 8)}` });
      await dialog.waitFor();
      expect(await textOf(dialog.locator('[data-refundable]'))).toBe('$56.20');
      await dialog.getByRole('radio', { name: /Partial refund/ }).check();
      const amount = dialog.getByRole('textbox', { name: 'Amount to refund (USD)' });
      await amount.fill('70');
      await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
      await dialog.getByText('The refund is more than what remains refundable on this order').waitFor();
      expect(await amount.getAttribute('aria-invalid')).toBe('true');
      await dialog.getByText('Please give a reason for the refund').waitFor();
      // Escape closes it, and nothing was refunded.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      await card.getByRole('button', { name: 'Refund', exact: true }).click();
      await dialog.getByRole('radio', { name: /Partial refund/ }).check();
      await amount.fill('20');
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('One bra arrived with a pulled seam');
      await screenshots(page, 'admin-refund-dialog', dialog);
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
      await page.getByText('Refund started').waitFor();
      await dialog.waitFor({ state: 'detached' });

      const refunds = card.getByRole('region', { name: 'Refunds' });
      await refunds.locator('li').nth(1).waitFor();
      const items = refunds.locator('li');
      expect(await textOf(items.nth(0))).toContain('$5.00');
      expect(await textOf(items.nth(0))).toContain('Refunded');
      expect(
        await items
          .nth(0)
          .getByRole('link', { name: /view the refund on the explorer/ })
          .getAttribute('href'),
      ).toBe(`/explorer/tx/${earlierSignature}`);
      const latest = await textOf(items.nth(1));
      expect(latest).toContain('$20.00');
      expect(latest).toMatch(/\(20\.0+ AELO\)/);
      expect(latest).toContain('One bra arrived with a pulled seam');
      const stored = await db
        .selectFrom('refunds')
        .select(['amount_cents', 'scope', 'reason'])
        .where('order_id', '=', order.id)
        .orderBy('created_at')
        .execute();
      expect(stored.map((r) => r.amount_cents)).toEqual([500, 2000]);

      // The refund worker carries it out on the local ledger; the card follows live. Whether the
      // chain took it decides the figures: a failed refund never counts.
      let settled = '';
      await expect
        .poll(
          async () => {
            const row = await db
              .selectFrom('refunds')
              .select('status')
              .where('order_id', '=', order.id)
              .where('amount_cents', '=', 2000)
              .executeTakeFirstOrThrow();
            settled = row.status;
            return settled === 'succeeded' || settled === 'failed';
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      await items
        .nth(1)
        .and(refunds.locator(`[data-refund-status="${settled}"]`))
        .waitFor();
      expect(await textOf(items.nth(1))).toContain(settled === 'succeeded' ? 'Refunded' : 'Failed');
      const net = settled === 'succeeded' ? 'Refunded−$25.00Net paid$36.20' : 'Refunded−$5.00Net paid$56.20';
      const totals = card.locator('dl[data-order-totals]');
      await expect.poll(async () => textOf(totals)).toContain(net);
      await screenshots(page, 'admin-order-card-refund', card);
      expect(await axeViolations(page)).toEqual([]);

      // The guest page: the discount line, the total charged, the refunds.
      const expires = new Date(Date.now() + 86_400_000);
      const token = signLink(AUTH_SECRET, 'guest-order', order.id, expires);
      const guest = await shop.newPage();
      await guest.goto(shop.url(`/orders/${order.id}?token=${encodeURIComponent(token)}`));
      const guestTotals = guest.locator('dl[data-order-totals]');
      await guestTotals.waitFor();
      expect(await textOf(guestTotals)).toBe(
        `Subtotal$68.00ShippingFreeAELO discount (10% off)−$6.80Total$61.20${net}`,
      );
      const guestRefunds = await textOf(guest.getByRole('region', { name: 'Refunds' }));
      expect(guestRefunds).toContain('Late delivery');
      expect(guestRefunds).toContain('One bra arrived with a pulled seam');
      expect(await axeViolations(guest)).toEqual([]);

      // The customer's own orders: the same lines and refunds on the order's card.
      const customer = await shop.newPage();
      const customerEmail = await signUpCustomer(customer, shop.server, 'refunded');
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', customerEmail)
        .executeTakeFirstOrThrow();
      await db.updateTable('orders').set({ user_id: user.id }).where('id', '=', order.id).execute();
      await customer.goto(shop.url('/profile/orders'));
      const mine = customer.getByRole('article', { name: `Order ${order.id.slice(0, 8)}` });
      await mine.waitFor();
      expect(await textOf(mine.locator('dl[data-order-totals]'))).toBe(
        `Subtotal$68.00ShippingFreeAELO discount (10% off)−$6.80Total$61.20${net}`,
      );
      expect(await textOf(mine.getByRole('region', { name: 'Refunds' }))).toContain('Late delivery');
      await screenshots(customer, 'customer-order-refund', mine);
      expect(await axeViolations(customer)).toEqual([]);
      await screenshots(guest, 'guest-order-refund');
    },
  );
  it.skipIf(!hasPostgres)(
    'a crypto refund awaiting the shop wallet signature can be signed from the order card',
    async () => {
      const db = database!.db;
      const payer = getAddressDecoder().decode(randomBytes(32));
      const tag = randomBytes(3).toString('hex');
      const order = await createOrder(db, {
        email: `sign-${tag}@example.com`,
        firstName: 'Sig',
        lastName: 'Nature',
        paymentMethod: 'sol',
        transactionSignature: `SolSig${tag}${'4'.repeat(80)}`.slice(0, 88),
        items: [
          { title: `Align Legging ${tag}`, image: images[0], category: 'womens-leggings', priceCents: 3400 },
        ],
      });
      const payment = await payOrder(db, order.id, {
        method: 'sol',
        amounts: [3400, 499, 0, 3899],
        cryptoAmount: '259933334',
      });
      // A shop run without the shop wallet's key: the refund waits for the admin's signature.
      await db
        .insertInto('refunds')
        .values({
          payment_id: payment.id,
          order_id: order.id,
          method: 'sol',
          kind: 'manual',
          scope: 'order',
          status: 'awaiting_signature',
          amount_cents: 1000,
          crypto_amount: '66666666',
          destination: payer,
          reason: 'Wrong size sent',
        })
        .execute();

      const page = await shop.newPage();
      await signInAsAdmin(page, shop.server, '/admin/orders');
      await page.getByRole('searchbox', { name: 'Search orders' }).fill(order.id);
      const card = page.getByRole('article', { name: `Order ${order.id.slice(0, 8)}` });
      await card.getByRole('button', { expanded: false }).click();
      const waiting = card.getByRole('region', { name: 'Refund of $10.00 awaiting signature' });
      await waiting.getByRole('button', { name: 'Sign refund' }).click();
      const walletLink = waiting.getByRole('link', { name: 'Open in wallet app' });
      await walletLink.waitFor();
      // A Solana Pay transaction request: the shop's refund endpoint, with its signed token.
      const href = (await walletLink.getAttribute('href'))!;
      expect(href.startsWith('solana:')).toBe(true);
      expect(decodeURIComponent(href.slice('solana:'.length))).toMatch(
        /\/api\/solana-pay\/refunds\/[0-9a-f-]{36}\?token=\d+\./,
      );
      await waiting.getByRole('img', { name: /QR code of the refund/ }).waitFor();
      // No wallet in this browser: it says what to do, and nothing is sent.
      await waiting.getByRole('button', { name: 'Sign with browser wallet' }).click();
      await waiting.getByRole('alert').waitFor();
      await screenshots(page, 'admin-refund-signature', waiting);
      expect(await axeViolations(page)).toEqual([]);
      const row = await db
        .selectFrom('refunds')
        .select('status')
        .where('order_id', '=', order.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('awaiting_signature');
    },
  );
});
