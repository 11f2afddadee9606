import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '#common/schemas/product';
import type { CheckoutResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import { SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

/**
 * The admin edits units on hand; open checkouts hold some of them. An edit while units are held
 * must not let them come back twice when the hold ends (a one-off item once reached stock 2).
 */

describe.each(BACKENDS)('stock on hand and held units (%s)', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;
  let c: AdminClients;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: stripeEnv(fake),
    });
    fake.setWebhook(async (req) => t.app.request(req));
    db = t.deps.database.db;
    c = await signInClients(t);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const buyable = async (id: string) =>
    (await db.selectFrom('products').select('quantity').where('id', '=', id).executeTakeFirstOrThrow())
      .quantity;
  const adminView = async (id: string) => json<Product>(await c.admin.get(`/api/admin/products/${id}`), 200);
  const hold = async (productId: string, quantity = 1) => {
    const res = await t.client().post('/api/checkout', {
      items: [{ productId, size: 'M', color: 'Black', quantity }],
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as CheckoutResponse;
  };

  it('shows held units apart, and an edit during a hold never adds phantom stock when it ends', async () => {
    const product = await createProduct(db, {
      title: 'One-off Jacket',
      quantity: 1,
      sizes: ['M'],
      colors: ['Black'],
      sizeGuide: null,
    });
    const checkout = await hold(product.id);
    expect(await buyable(product.id)).toBe(0);

    // The admin sees the unit on hand, held by the checkout.
    expect(await adminView(product.id)).toMatchObject({ quantity: 1, reservedQuantity: 1 });
    const list = await json<{ items: Product[] }>(
      await c.admin.get('/api/admin/products?search=One-off'),
      200,
    );
    expect(list.items.find((p) => p.id === product.id)).toMatchObject({ quantity: 1, reservedQuantity: 1 });

    // Editing anything (the quantity as shown included) keeps one unit in all.
    const edited = await c.admin.patch(`/api/admin/products/${product.id}`, {
      title: 'One-off Rain Jacket',
      quantity: 1,
    });
    expect(await json<Product>(edited, 200)).toMatchObject({ quantity: 1, reservedQuantity: 1 });
    expect(await buyable(product.id)).toBe(0);

    // The hold ends unpaid: the unit is for sale again, once.
    const swept = await sweepExpiredReservations(t.deps, new Date(Date.parse(checkout.expiresAt) + 1000));
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await buyable(product.id)).toBe(1);
    expect(await adminView(product.id)).toMatchObject({ quantity: 1, reservedQuantity: 0 });
  });

  it('refuses an on-hand quantity below the held units, and sells a paid hold once', async () => {
    const product = await createProduct(db, {
      title: 'Twin Tanks',
      quantity: 3,
      sizes: ['M'],
      colors: ['Black'],
      sizeGuide: null,
    });
    const checkout = await hold(product.id, 2);
    const below = await c.admin.patch(`/api/admin/products/${product.id}`, { quantity: 1 });
    const error = await json<ErrorJson>(below, 400);
    expect(error.error.fields?.quantity).toBe('Quantity cannot be less than the 2 held by open checkouts');

    // Raising the stock while units are held: on hand 5, of which 2 held, 3 for sale.
    expect(
      await json<Product>(await c.admin.patch(`/api/admin/products/${product.id}`, { quantity: 5 }), 200),
    ).toMatchObject({
      quantity: 5,
      reservedQuantity: 2,
    });
    expect(await buyable(product.id)).toBe(3);

    // Paid: the two held units leave the shop once; on hand 3, none held.
    const session = fake.sessions.find((s) => s.session.metadata.reference === checkout.reference)!;
    await fake.completeSession(session.session.id);
    expect(await adminView(product.id)).toMatchObject({ quantity: 3, reservedQuantity: 0 });
    expect(await buyable(product.id)).toBe(3);
  });
});
