/**
 * What the Stripe webhook tests share (stripe-webhooks, stripe-webhooks-refunds and
 * stripe-webhooks-refusals): the shop on a scratch database of a backend, the Stripe stand-in its
 * webhooks come from, card checkouts of tank tops and the rows and answers they read.
 */
import { expect } from 'vitest';
import type { CheckoutResponse, PaymentStatusResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { startFakeStripe, type FakeSession, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { warnIfPostgresSkipped, type Backend } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

export const SHIPPING = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'GRACE@example.com',
  phone: '555 987 6543',
  address: '2 Navy Way',
  city: 'Arlington',
  state: 'VA',
  zipCode: '22201-1234',
  country: 'US',
};

let productCounter = 0;
export async function insertProduct(
  db: Db,
  overrides: Partial<{ title: string; priceCents: number; quantity: number }> = {},
) {
  const title = overrides.title ?? `Webhook Tank ${++productCounter}`;
  const row = await db
    .insertInto('products')
    .values({
      title,
      brand: 'Nike',
      price_cents: overrides.priceCents ?? 3_000,
      images: ['products/tank-800.webp'],
      quantity: overrides.quantity ?? 2,
      sizes: ['M'],
      colors: [],
      gender: 'mens',
      category: 'mens-tanks',
      shipping_weight: '0.3',
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, title };
}

export async function quantityOf(db: Db, productId: string): Promise<number> {
  const row = await db
    .selectFrom('products')
    .select('quantity')
    .where('id', '=', productId)
    .executeTakeFirstOrThrow();
  return row.quantity;
}

/** The shop under test and the Stripe stand-in its webhooks come from. */
export interface WebhookApp {
  fake: FakeStripeServer;
  t: TestApp;
  db: Db;
  close(): Promise<void>;
}

export async function startWebhookApp(backend: Backend): Promise<WebhookApp> {
  warnIfPostgresSkipped();
  const fake = await startFakeStripe();
  try {
    const t = await startTestApp({
      backend,
      // Anonymous checkouts take whole products here (their share: ipv6-clients.test.ts).
      env: { ...stripeEnv(fake), ANONYMOUS_HOLD_SHARE_PERCENT: '100' },
    });
    fake.setWebhook(async (req) => t.app.request(req));
    return {
      fake,
      t,
      db: t.deps.database.db,
      async close() {
        await t.close();
        await fake.close();
      },
    };
  } catch (error) {
    await fake.close();
    throw error;
  }
}

/** Card checkouts on the app `app()` answers, and what became of them. */
export function webhookRequests(app: () => WebhookApp) {
  async function startCardCheckout(productId: string, quantity = 1) {
    const { t, fake } = app();
    const res = await t.client().post('/api/checkout', {
      items: [{ productId, size: 'M', quantity }],
      shippingInfo: SHIPPING,
      paymentMethod: 'card',
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as CheckoutResponse;
    const record = fake.lastSession()!;
    expect(record.session.metadata.reference).toBe(body.reference);
    return { reference: body.reference, sessionId: record.session.id, checkoutUrl: body.checkoutUrl! };
  }

  const paymentOf = (reference: string) =>
    app().db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow();
  const ordersOf = (paymentId: string) =>
    app().db.selectFrom('orders').selectAll().where('payment_id', '=', paymentId).execute();
  const poolRowsOf = async (orderId: string) =>
    (
      await app()
        .db.selectFrom('reward_pool_entries')
        .select(['pool', 'amount_cents'])
        .where('order_id', '=', orderId)
        .orderBy('pool')
        .execute()
    ).map((r) => ({ pool: r.pool, amount_cents: Number(r.amount_cents) }));
  const statusOf = async (reference: string) => {
    const res = await app().t.client().get(`/api/payments/${reference}/status`);
    expect(res.status).toBe(200);
    return (await res.json()) as PaymentStatusResponse;
  };
  /** The event Stripe would send once the (fake) session is paid, without changing the fake. */
  const completedEvent = (session: FakeSession, overrides: Partial<FakeSession> = {}) =>
    app().fake.buildEvent('checkout.session.completed', {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      payment_intent: `pi_test_${session.id.slice(-10)}`,
      url: null,
      ...overrides,
    });
  return { startCardCheckout, paymentOf, ordersOf, poolRowsOf, statusOf, completedEvent };
}
