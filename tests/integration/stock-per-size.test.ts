import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutResponse } from '#common/schemas/checkout';
import type { Product, SizeStock } from '#common/schemas/product';
import { type Database, type Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import { settleStockForOrder } from '#server/modules/catalog/stock.service';
import { SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import {
  BACKENDS,
  createScratchDatabase,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import { openTestDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

/**
 * Stock per size (issue 40): a product whose sizes are tracked apart sells each size's own units.
 * Through the real server: the admin's per-size quantities (validated, summed into Quantity), the
 * storefront's per-size availability, checkouts refused per size, holds given back per size at
 * expiry and cancel, consumed when paid; products without it work as before. The concurrent
 * oversell race is in stock-per-size-race.test.ts (PostgreSQL).
 */

describe.each(BACKENDS)('stock per size (%s)', (backend) => {
  let scratch: ScratchDatabase;
  let database: Database;
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;
  let c: AdminClients;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    scratch = await createScratchDatabase(backend);
    database = await openTestDatabase(scratch, { poolSize: 5 });
    t = await startTestApp({
      backend,
      scratch,
      database,
      env: {
        ...stripeEnv(fake),
        SIGN_IN_RATE_LIMIT: '1000',
        SIGN_UP_RATE_LIMIT: '1000',
        CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
        CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '100000',
        ANONYMOUS_HOLD_SHARE_PERCENT: '100',
      },
    });
    fake.setWebhook(async (req) => t.app.request(req));
    db = t.deps.database.db;
    c = await signInClients(t);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await scratch?.drop();
    await fake?.close();
  });

  const legging = (title: string, sizeStock: SizeStock | null, quantity?: number) =>
    createProduct(db, {
      title,
      sizes: ['XS', 'S', 'M'],
      colors: ['Black', 'Navy'],
      sizeGuide: null,
      sizeStock,
      quantity: quantity ?? Object.values(sizeStock ?? {}).reduce((a, b) => a + b, 0),
    });
  const publicView = async (id: string) => json<Product>(await t.client().get(`/api/products/${id}`), 200);
  const adminView = async (id: string) => json<Product>(await c.admin.get(`/api/admin/products/${id}`), 200);
  const stored = (id: string) =>
    db
      .selectFrom('products')
      .select(['quantity', 'size_stock'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const checkout = (items: Array<{ productId: string; size: string; quantity: number; color?: string }>) =>
    t.client().post('/api/checkout', {
      items: items.map((i) => ({ color: 'Black', ...i })),
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
    });
  const patch = (id: string, changes: Record<string, unknown>) =>
    c.admin.patch(`/api/admin/products/${id}`, changes);

  it('shows each size’s units to shoppers and refuses 3 x XS when XS has 1 left', async () => {
    const p = await legging('Sized Align Legging', { XS: 1, S: 2, M: 0 });
    expect(await publicView(p.id)).toMatchObject({ quantity: 3, sizeStock: { XS: 1, S: 2, M: 0 } });

    const tooMany = await json<ErrorJson>(
      await checkout([{ productId: p.id, size: 'XS', quantity: 3 }]),
      409,
    );
    expect(tooMany.error).toMatchObject({
      code: 'OUT_OF_STOCK',
      message: 'Only 1 left of Sized Align Legging in XS',
    });
    expect(tooMany.error.fields).toEqual({ 'items.0.quantity': 'Only 1 left of Sized Align Legging in XS' });
    const soldOut = await json<ErrorJson>(await checkout([{ productId: p.id, size: 'M', quantity: 1 }]), 409);
    expect(soldOut.error.message).toBe('Sized Align Legging in M is sold out');
    // Two colours of one size share the size's units.
    const colours = await checkout([
      { productId: p.id, size: 'S', quantity: 2, color: 'Black' },
      { productId: p.id, size: 'S', quantity: 1, color: 'Navy' },
    ]);
    expect((await json<ErrorJson>(colours, 409)).error.message).toBe(
      'Only 2 left of Sized Align Legging in S',
    );
    expect(await stored(p.id)).toEqual({ quantity: 3, size_stock: { XS: 1, S: 2, M: 0 } });
  });

  it('holds per size, gives the units back to their size at expiry and cancel, consumes them when paid', async () => {
    const p = await legging('Sized Flow Tank', { XS: 1, S: 2, M: 4 });
    const first = await json<CheckoutResponse>(
      await checkout([
        { productId: p.id, size: 'XS', quantity: 1 },
        { productId: p.id, size: 'M', quantity: 3 },
      ]),
      201,
    );
    expect(await publicView(p.id)).toMatchObject({ quantity: 3, sizeStock: { XS: 0, S: 2, M: 1 } });
    // The admin sees units on hand per size, the held ones apart.
    expect(await adminView(p.id)).toMatchObject({
      quantity: 7,
      reservedQuantity: 4,
      sizeStock: { XS: 1, S: 2, M: 4 },
    });
    const held = await db
      .selectFrom('stock_reservations')
      .select(['size', 'quantity'])
      .where('product_id', '=', p.id)
      .orderBy('size')
      .execute();
    expect(held).toEqual([
      { size: 'M', quantity: 3 },
      { size: 'XS', quantity: 1 },
    ]);

    // Expiry: each size gets its own units back.
    expect(
      await sweepExpiredReservations(t.deps, new Date(Date.parse(first.expiresAt) + 1000)),
    ).toBeGreaterThanOrEqual(1);
    expect(await stored(p.id)).toEqual({ quantity: 7, size_stock: { XS: 1, S: 2, M: 4 } });

    // Cancel: the same.
    const second = await json<CheckoutResponse>(
      await checkout([{ productId: p.id, size: 'S', quantity: 2 }]),
      201,
    );
    expect(await stored(p.id)).toEqual({ quantity: 5, size_stock: { XS: 1, S: 0, M: 4 } });
    expect((await t.client().post(`/api/payments/${second.reference}/cancel`)).status).toBe(200);
    expect(await stored(p.id)).toEqual({ quantity: 7, size_stock: { XS: 1, S: 2, M: 4 } });

    // Paid: the held units leave the shop, from their size.
    const third = await json<CheckoutResponse>(
      await checkout([{ productId: p.id, size: 'XS', quantity: 1 }]),
      201,
    );
    const session = fake.sessions.find((s) => s.session.metadata.reference === third.reference)!;
    await fake.completeSession(session.session.id);
    expect(await stored(p.id)).toEqual({ quantity: 6, size_stock: { XS: 0, S: 2, M: 4 } });
    expect(await adminView(p.id)).toMatchObject({
      quantity: 6,
      reservedQuantity: 0,
      sizeStock: { XS: 0, S: 2, M: 4 },
    });
  });

  it('a payment confirmed after its hold ended retakes its size, or fails when that size sold out meanwhile', async () => {
    const p = await legging('Sized Late Bra', { XS: 1, S: 1, M: 1 });
    const lines = [
      { productId: p.id, title: p.title, size: 'XS', quantity: 1 },
      { productId: p.id, title: p.title, size: 'M', quantity: 1 },
    ];
    const first = await json<CheckoutResponse>(
      await checkout(lines.map(({ productId, size, quantity }) => ({ productId, size, quantity }))),
      201,
    );
    await sweepExpiredReservations(t.deps, new Date(Date.parse(first.expiresAt) + 1000));
    const payment = await db
      .selectFrom('payments')
      .select('id')
      .where('reference', '=', first.reference)
      .executeTakeFirstOrThrow();
    // Still there: both sizes are taken again and the order's units leave the shop.
    const settled = await db
      .transaction()
      .execute((trx) => settleStockForOrder(trx, payment.id, lines, new Date()));
    expect(settled.ok).toBe(true);
    expect(await stored(p.id)).toEqual({ quantity: 1, size_stock: { XS: 0, S: 1, M: 0 } });

    // Another hold that ended, for S, while S sold out meanwhile: nothing is taken.
    const second = await json<CheckoutResponse>(
      await checkout([{ productId: p.id, size: 'S', quantity: 1 }]),
      201,
    );
    await sweepExpiredReservations(t.deps, new Date(Date.parse(second.expiresAt) + 1000));
    await json<CheckoutResponse>(await checkout([{ productId: p.id, size: 'S', quantity: 1 }]), 201);
    const late = await db
      .selectFrom('payments')
      .select('id')
      .where('reference', '=', second.reference)
      .executeTakeFirstOrThrow();
    const refused = await db
      .transaction()
      .execute((trx) =>
        settleStockForOrder(
          trx,
          late.id,
          [{ productId: p.id, title: p.title, size: 'S', quantity: 1 }],
          new Date(),
        ),
      );
    expect(refused).toMatchObject({ ok: false, short: [{ size: 'S' }] });
    expect(await stored(p.id)).toEqual({ quantity: 0, size_stock: { XS: 0, S: 0, M: 0 } });
  });

  it('admin: quantities only for offered sizes, one for each, summing to Quantity; off keeps the total', async () => {
    const p = await legging('Sized Admin Legging', null, 6);
    const fields = async (changes: Record<string, unknown>) =>
      (await json<ErrorJson>(await patch(p.id, changes), 400)).error.fields;

    expect(await fields({ sizeStock: { XS: 1, S: 2, M: 3, L: 1 }, quantity: 7 })).toMatchObject({
      'sizeStock.L': 'Size L is not offered',
    });
    expect(await fields({ sizeStock: { XS: 1, S: 2 }, quantity: 3 })).toMatchObject({
      'sizeStock.M': 'Enter a quantity for size M',
    });
    expect(await fields({ sizeStock: { XS: 1, S: 2, M: 3 }, quantity: 7 })).toMatchObject({
      quantity: "Quantity must be the sum of the sizes' quantities (6)",
    });
    expect(await fields({ sizeStock: { XS: -1, S: 2, M: 5 }, quantity: 6 })).toHaveProperty('sizeStock.XS');
    expect(await fields({ sizeStock: { XS: 1.5, S: 2, M: 2.5 }, quantity: 6 })).toHaveProperty(
      'sizeStock.XS',
    );
    expect(await stored(p.id)).toEqual({ quantity: 6, size_stock: null });

    // On: the sum becomes the Quantity (sent without one, it is computed).
    const on = await json<Product>(await patch(p.id, { sizeStock: { M: 3, XS: 1, S: 0 } }), 200);
    expect(on).toMatchObject({ quantity: 4, sizeStock: { XS: 1, S: 0, M: 3 } });
    expect(Object.keys(on.sizeStock!)).toEqual(['XS', 'S', 'M']);
    expect(await stored(p.id)).toEqual({ quantity: 4, size_stock: { XS: 1, S: 0, M: 3 } });
    // A size no longer offered takes its quantity with it; its Quantity must still be the sum.
    const narrowed = await json<Product>(
      await patch(p.id, { sizes: ['XS', 'M'], sizeStock: { XS: 1, M: 3 }, quantity: 4 }),
      200,
    );
    expect(narrowed).toMatchObject({ sizes: ['XS', 'M'], quantity: 4, sizeStock: { XS: 1, M: 3 } });
    // A Quantity alone cannot disagree with the sizes.
    expect(await fields({ quantity: 9 })).toMatchObject({
      quantity: "Quantity must be the sum of the sizes' quantities (4)",
    });

    // Off: one quantity again, the total kept.
    expect(await json<Product>(await patch(p.id, { sizeStock: null }), 200)).toMatchObject({
      quantity: 4,
      sizeStock: null,
    });
    expect(await stored(p.id)).toEqual({ quantity: 4, size_stock: null });
    const audit = await db
      .selectFrom('admin_audit_log')
      .select('details')
      .where(sql<boolean>`details->>'productId' = ${p.id}`)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ changed: ['sizeStock'] });
  });

  it('admin: a size cannot be set below what open checkouts hold in it', async () => {
    const p = await legging('Sized Held Jacket', { XS: 2, S: 1, M: 0 });
    await json<CheckoutResponse>(await checkout([{ productId: p.id, size: 'XS', quantity: 2 }]), 201);
    const below = await json<ErrorJson>(await patch(p.id, { sizeStock: { XS: 1, S: 1, M: 0 } }), 400);
    expect(below.error.fields).toEqual({
      'sizeStock.XS': 'Quantity cannot be less than the 2 held by open checkouts',
    });
    // Raising M while XS is held: on hand XS 2 (held), S 1, M 5; buyable 0, 1, 5.
    const raised = await json<Product>(await patch(p.id, { sizeStock: { XS: 2, S: 1, M: 5 } }), 200);
    expect(raised).toMatchObject({ quantity: 8, reservedQuantity: 2, sizeStock: { XS: 2, S: 1, M: 5 } });
    expect(await stored(p.id)).toEqual({ quantity: 6, size_stock: { XS: 0, S: 1, M: 5 } });
  });

  it('a product without stock per size works as before: one quantity for every size', async () => {
    const p = await legging('Shared Quantity Legging', null, 3);
    expect(await publicView(p.id)).toMatchObject({ quantity: 3, sizeStock: null });
    await json<CheckoutResponse>(await checkout([{ productId: p.id, size: 'XS', quantity: 3 }]), 201);
    expect(await stored(p.id)).toEqual({ quantity: 0, size_stock: null });
    const none = await json<ErrorJson>(await checkout([{ productId: p.id, size: 'M', quantity: 1 }]), 409);
    expect(none.error.message).toBe('Shared Quantity Legging is sold out');
  });

  it('the database refuses per-size counts that are negative, unoffered or do not add up', async () => {
    const p = await legging('Sized Constraint Tee', { XS: 1, S: 1, M: 1 });
    const set = (quantity: number, stock: unknown) =>
      db
        .updateTable('products')
        .set({ quantity, size_stock: JSON.stringify(stock) })
        .where('id', '=', p.id)
        .execute();
    await expect(set(4, { XS: 2, S: 1, M: 0 })).rejects.toThrow(/products_size_stock_valid/);
    await expect(set(3, { XS: -1, S: 2, M: 2 })).rejects.toThrow(/products_size_stock_valid/);
    await expect(set(3, { XS: 1, S: 1, L: 1 })).rejects.toThrow(/products_size_stock_valid/);
    await expect(set(2, { XS: 1, S: 1 })).rejects.toThrow(/products_size_stock_valid/);
    await set(4, { XS: 2, S: 1, M: 1 });
    expect(await stored(p.id)).toEqual({ quantity: 4, size_stock: { XS: 2, S: 1, M: 1 } });
  });
});
