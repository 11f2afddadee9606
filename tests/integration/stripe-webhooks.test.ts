import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import type { CheckoutResponse, PaymentStatusResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import { startFakeStripe, type FakeSession, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * POST /api/webhooks/stripe and GET /api/payments/:reference/status: signed events only, an order
 * exactly once per session, duplicates and out-of-order events harmless, a late confirmation
 * without stock becoming a failed order marked for refund.
 */

const SHIPPING = {
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
async function insertProduct(
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

async function quantityOf(db: Db, productId: string): Promise<number> {
  const row = await db
    .selectFrom('products')
    .select('quantity')
    .where('id', '=', productId)
    .executeTakeFirstOrThrow();
  return row.quantity;
}

describe.each(BACKENDS)('Stripe webhooks and payment status on %s', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      // Anonymous checkouts take whole products here (their share: ipv6-clients.test.ts).
      env: { ...stripeEnv(fake), ANONYMOUS_HOLD_SHARE_PERCENT: '100' },
    });
    fake.setWebhook(async (req) => t.app.request(req));
    db = t.deps.database.db;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function startCardCheckout(productId: string, quantity = 1) {
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
    db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow();
  const ordersOf = (paymentId: string) =>
    db.selectFrom('orders').selectAll().where('payment_id', '=', paymentId).execute();
  const poolRowsOf = async (orderId: string) =>
    (
      await db
        .selectFrom('reward_pool_entries')
        .select(['pool', 'amount_cents'])
        .where('order_id', '=', orderId)
        .orderBy('pool')
        .execute()
    ).map((r) => ({ pool: r.pool, amount_cents: Number(r.amount_cents) }));
  const statusOf = async (reference: string) => {
    const res = await t.client().get(`/api/payments/${reference}/status`);
    expect(res.status).toBe(200);
    return (await res.json()) as PaymentStatusResponse;
  };
  /** The event Stripe would send once the (fake) session is paid, without changing the fake. */
  const completedEvent = (session: FakeSession, overrides: Partial<FakeSession> = {}) =>
    fake.buildEvent('checkout.session.completed', {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      payment_intent: `pi_test_${session.id.slice(-10)}`,
      url: null,
      ...overrides,
    });

  it('pays on the hosted page: signed event, one pending order from the payment, redirect to /success', async () => {
    const product = await insertProduct(db, { title: 'Dri-FIT Tank', priceCents: 3_000, quantity: 2 });
    const { reference, sessionId, checkoutUrl } = await startCardCheckout(product.id);

    const page = await fetch(checkoutUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('$34.99');
    expect(html).toContain('>Pay</button>');
    expect(html).toContain('>Cancel</a>');

    const pay = await fetch(checkoutUrl, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(303);
    // The way back carries the checkout's access token: /success can name the order and link to it.
    const back = new URL(pay.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3000/success');
    expect(back.searchParams.get('reference')).toBe(reference);
    expect(back.searchParams.get('token')).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(fake.deliveries.at(-1)).toMatchObject({ type: 'checkout.session.completed', status: 200 });
    expect(JSON.parse(fake.deliveries.at(-1)!.body)).toEqual({
      received: true,
      type: 'checkout.session.completed',
      outcome: 'order_created',
    });

    const payment = await paymentOf(reference);
    expect(payment).toMatchObject({
      status: 'confirmed',
      stripe_session_id: sessionId,
      stripe_payment_intent_id: fake.session(sessionId)!.session.payment_intent,
      transaction_signature: null,
    });
    expect(payment.confirmed_at).not.toBeNull();
    const [order, ...more] = await ordersOf(payment.id);
    expect(more).toEqual([]);
    expect(order).toMatchObject({
      status: 'pending',
      payment_method: 'card',
      subtotal_cents: 3_000,
      shipping_cents: 499,
      discount_cents: 0,
      amount_cents: 3_499,
      shipping_email: 'grace@example.com',
      transaction_signature: null,
      refund_required: false,
      refund_reason: null,
      tracking_number: null,
    });
    expect(order!.shipping_info).toMatchObject({ firstName: 'Grace', zipCode: '22201-1234' });
    const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', order!.id).execute();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      product_id: product.id,
      title: 'Dri-FIT Tank',
      image: 'products/tank-800.webp',
      category: 'mens-tanks',
      size: 'M',
      color: null,
      quantity: 1,
      price_cents: 3_000,
    });
    // The stock taken at checkout is now the order's.
    expect(await quantityOf(db, product.id)).toBe(1);
    const reservation = await db
      .selectFrom('stock_reservations')
      .select(['consumed_at', 'released_at'])
      .where('payment_id', '=', payment.id)
      .executeTakeFirstOrThrow();
    expect(reservation.consumed_at).not.toBeNull();
    expect(reservation.released_at).toBeNull();

    // The reference reveals the outcome, never the shipping details.
    const status = await t.client().get(`/api/payments/${reference}/status`);
    const text = await status.text();
    expect(JSON.parse(text)).toEqual({
      status: 'completed',
      transaction_signature: null,
      order_id: order!.id,
      payment_method: 'card',
      demo: true,
    });
    expect(text).not.toMatch(/grace|hopper|navy/i);

    // Paying a completed session's page again does nothing more.
    expect((await fetch(checkoutUrl)).status).toBe(200);
  });

  it('makes one order from a completed event delivered twice, and ignores expired after completed', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    const { reference, sessionId } = await startCardCheckout(product.id);
    await fake.completeSession(sessionId);
    const session = fake.session(sessionId)!.session;

    const again = await fake.sendEvent(fake.buildEvent('checkout.session.completed', session));
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ outcome: 'duplicate' });
    // Stripe retries the very same event (same id, same bytes) too.
    const retried = await fake.sendEvent(
      fake.deliveries.find(
        (d) => d.type === 'checkout.session.completed' && d.eventId !== '' && d.payload.includes(sessionId),
      )!.payload,
    );
    expect(JSON.parse(retried.body)).toMatchObject({ outcome: 'duplicate' });

    const expired = await fake.sendEvent(
      fake.buildEvent('checkout.session.expired', {
        ...session,
        status: 'expired',
        payment_status: 'unpaid',
      }),
    );
    expect(expired.status).toBe(200);
    expect(JSON.parse(expired.body)).toMatchObject({ outcome: 'no_change' });

    const payment = await paymentOf(reference);
    expect(payment.status).toBe('confirmed');
    const orders = await ordersOf(payment.id);
    expect(orders).toHaveLength(1);
    expect(await quantityOf(db, product.id)).toBe(0);
    expect((await statusOf(reference)).status).toBe('completed');
    // The revenue split: 10% of the order's total to each reward pool, once, however often it was delivered.
    const total = Number(orders[0]!.amount_cents);
    expect(await poolRowsOf(orders[0]!.id)).toEqual([
      { pool: 'buyback', amount_cents: Math.floor(total / 10) },
      { pool: 'random', amount_cents: Math.floor(total / 10) },
    ]);
    const events = await db
      .selectFrom('payment_events')
      .select(['from_status', 'to_status'])
      .where('payment_id', '=', payment.id)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { from_status: null, to_status: 'pending' },
      { from_status: 'pending', to_status: 'pending' },
      { from_status: 'pending', to_status: 'confirmed' },
    ]);
  });

  it('releases the stock on checkout.session.expired; a later completion with stock still there makes the order', async () => {
    const product = await insertProduct(db, { quantity: 2 });
    const { reference, sessionId } = await startCardCheckout(product.id, 2);
    expect(await quantityOf(db, product.id)).toBe(0);
    const original = structuredClone(fake.session(sessionId)!.session);

    await fake.expireSession(sessionId);
    expect(JSON.parse(fake.deliveries.at(-1)!.body)).toMatchObject({ outcome: 'expired' });
    expect((await paymentOf(reference)).status).toBe('expired');
    expect(await quantityOf(db, product.id)).toBe(2);
    expect((await statusOf(reference)).status).toBe('expired');

    // Out of order: Stripe had taken the payment before the session expired.
    const late = await fake.sendEvent(completedEvent(original));
    expect(JSON.parse(late.body)).toMatchObject({ outcome: 'order_created' });
    const payment = await paymentOf(reference);
    expect(payment.status).toBe('confirmed');
    const orders = await ordersOf(payment.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'pending', refund_required: false });
    expect(await quantityOf(db, product.id)).toBe(0);
    expect((await statusOf(reference)).status).toBe('completed');
    const lastEvent = await db
      .selectFrom('payment_events')
      .select(['from_status', 'to_status', 'detail'])
      .where('payment_id', '=', payment.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(lastEvent).toMatchObject({
      from_status: 'expired',
      to_status: 'confirmed',
      detail: { lateConfirmation: true },
    });
  });

  it('turns a completion that arrives after its stock was sold into a failed order, refunded in full', async () => {
    const product = await insertProduct(db, { title: 'Last Tank', quantity: 1 });
    const first = await startCardCheckout(product.id);
    const original = structuredClone(fake.session(first.sessionId)!.session);

    // The reservation runs out (the sweeper), and another shopper takes the last one.
    expect(await sweepExpiredReservations(t.deps, new Date(Date.now() + 40 * 60_000))).toBeGreaterThanOrEqual(
      1,
    );
    expect(await quantityOf(db, product.id)).toBe(1);
    const second = await startCardCheckout(product.id);
    expect(await quantityOf(db, product.id)).toBe(0);

    const late = await fake.sendEvent(completedEvent(original));
    expect(late.status).toBe(200);
    expect(JSON.parse(late.body)).toMatchObject({ outcome: 'failed_order_created' });

    const payment = await paymentOf(first.reference);
    expect(payment.status).toBe('confirmed');
    const [order] = await ordersOf(payment.id);
    expect(order).toMatchObject({
      status: 'failed',
      refund_required: true,
      amount_cents: 3_499,
      payment_method: 'card',
    });
    expect(order!.refund_reason).toContain('Last Tank');
    // A refunded order pays nothing into the reward pools.
    expect(await poolRowsOf(order!.id)).toEqual([]);
    // The other shopper's reservation is untouched and stock never went below zero.
    expect(await quantityOf(db, product.id)).toBe(0);
    expect((await paymentOf(second.reference)).status).toBe('pending');
    expect(await statusOf(first.reference)).toEqual({
      status: 'failed',
      transaction_signature: null,
      order_id: order!.id,
      payment_method: 'card',
      demo: true,
      message:
        'Your payment arrived after this checkout had ended, and an item in it is no longer available, so no order was placed. Your payment is being refunded in full to the card or wallet that paid it.',
      refunds: [
        {
          amountText: '$34.99',
          status: expect.stringMatching(/^(pending|sent|succeeded)$/),
          reason: 'Paid after the checkout ended; no longer in stock: Last Tank',
        },
      ],
    });
    // The refund is on its way through the path the admin uses: one, of everything paid.
    const refunds = await db
      .selectFrom('refunds')
      .select(['method', 'kind', 'scope', 'amount_cents', 'order_id'])
      .where('payment_id', '=', payment.id)
      .execute();
    expect(refunds).toEqual([
      { method: 'card', kind: 'automatic', scope: 'order', amount_cents: 3_499, order_id: order!.id },
    ]);

    // Delivered again: still one order.
    const again = await fake.sendEvent(completedEvent(original));
    expect(JSON.parse(again.body)).toMatchObject({ outcome: 'duplicate' });
    expect(await ordersOf(payment.id)).toHaveLength(1);
  });

  it("takes a late payment's stock all or nothing: one product short leaves the others untouched", async () => {
    const a = await insertProduct(db, { title: 'Pair Tank A', quantity: 1 });
    const b = await insertProduct(db, { title: 'Pair Tank B', quantity: 1 });
    const res = await t.client().post('/api/checkout', {
      items: [
        { productId: a.id, size: 'M', quantity: 1 },
        { productId: b.id, size: 'M', quantity: 1 },
      ],
      shippingInfo: SHIPPING,
      paymentMethod: 'card',
    });
    const { reference } = (await res.json()) as CheckoutResponse;
    const original = structuredClone(fake.lastSession()!.session);
    await fake.expireSession(original.id);
    expect([await quantityOf(db, a.id), await quantityOf(db, b.id)]).toEqual([1, 1]);
    await startCardCheckout(b.id);

    const late = await fake.sendEvent(completedEvent(original));
    expect(JSON.parse(late.body)).toMatchObject({ outcome: 'failed_order_created' });
    expect([await quantityOf(db, a.id), await quantityOf(db, b.id)]).toEqual([1, 0]);
    const [order] = await ordersOf((await paymentOf(reference)).id);
    expect(order).toMatchObject({ status: 'failed', refund_required: true });
    expect(order!.refund_reason).toContain('Pair Tank B');
    expect(order!.refund_reason).not.toContain('Pair Tank A');
  });

  it('refunds a payment whose product was deleted while it was pending, keeping the line', async () => {
    const product = await insertProduct(db, { title: 'Withdrawn Tank', quantity: 1 });
    const { reference, sessionId } = await startCardCheckout(product.id);
    await db.deleteFrom('products').where('id', '=', product.id).execute();
    await fake.completeSession(sessionId);
    expect(JSON.parse(fake.deliveries.at(-1)!.body)).toMatchObject({ outcome: 'failed_order_created' });
    const [order] = await ordersOf((await paymentOf(reference)).id);
    expect(order).toMatchObject({ status: 'failed', refund_required: true });
    const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', order!.id).execute();
    expect(items).toMatchObject([{ product_id: null, title: 'Withdrawn Tank', quantity: 1 }]);
  });

  it('refuses events without a valid signature (400) and changes nothing', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    const { reference, sessionId } = await startCardCheckout(product.id);
    const event = completedEvent(fake.session(sessionId)!.session);

    const forged = await fake.sendEvent(event, {
      signature: `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
    });
    expect(forged.status).toBe(400);
    expect((JSON.parse(forged.body) as ErrorBody).error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Invalid Stripe signature',
    });
    const otherSecret = await fake.sendEvent(event, { secret: 'whsec_not_the_shops_secret' });
    expect(otherSecret.status).toBe(400);
    const unsigned = await t.app.request('/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    expect(((await unsigned.json()) as ErrorBody).error.message).toBe('Missing Stripe signature');
    // A signed body that was altered afterwards.
    const signedFor = JSON.stringify(event);
    const tampered = await fake.sendEvent(signedFor.replace('"amount_total":', '"amount_total":1'), {
      signature: Stripe.webhooks.generateTestHeaderString({ payload: signedFor, secret: fake.webhookSecret }),
    });
    expect(tampered.status).toBe(400);

    const payment = await paymentOf(reference);
    expect(payment.status).toBe('pending');
    expect(await ordersOf(payment.id)).toEqual([]);
    expect(await quantityOf(db, product.id)).toBe(0);
  });

  it('answers 400 to a signed but malformed event and changes nothing', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    const { reference, sessionId } = await startCardCheckout(product.id);
    const session = fake.session(sessionId)!.session;
    const event = completedEvent(session);
    const { data: _data, ...withoutData } = event;
    const malformed = [
      withoutData,
      { ...event, data: { object: null } },
      { ...event, data: {} },
      { ...event, data: { object: { ...session, object: 'customer' } } },
      { ...event, data: { object: { ...session, amount_total: 'lots' } } },
      { ...event, type: 'checkout.session.expired', data: { object: 'cs_test_x' } },
    ];
    for (const body of malformed) {
      const res = await fake.sendEvent(body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect((JSON.parse(res.body) as ErrorBody).error).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'Malformed Stripe event',
      });
    }
    const payment = await paymentOf(reference);
    expect(payment.status).toBe('pending');
    expect(await ordersOf(payment.id)).toEqual([]);
  });

  it('answers 400 to a completed event that reuses the payment intent of another payment', async () => {
    const first = await insertProduct(db);
    const paid = await startCardCheckout(first.id);
    await fake.completeSession(paid.sessionId);
    const firstPayment = await paymentOf(paid.reference);
    expect(firstPayment.status).toBe('confirmed');
    expect(firstPayment.stripe_payment_intent_id).not.toBeNull();

    const second = await insertProduct(db);
    const { reference, sessionId } = await startCardCheckout(second.id);
    const res = await fake.sendEvent(
      completedEvent(fake.session(sessionId)!.session, {
        payment_intent: firstPayment.stripe_payment_intent_id!,
      }),
    );
    expect(res.status).toBe(400);
    expect((JSON.parse(res.body) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
    const payment = await paymentOf(reference);
    expect(payment.status).toBe('pending');
    expect(await ordersOf(payment.id)).toEqual([]);
  });

  it('acknowledges event types it does not handle, and sessions that are not ours', async () => {
    const res = await fake.sendEvent({
      id: 'evt_test_other',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_test_1', object: 'customer' } },
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ received: true, type: 'customer.created', outcome: 'ignored' });

    const product = await insertProduct(db);
    const { sessionId } = await startCardCheckout(product.id);
    const foreign = completedEvent(fake.session(sessionId)!.session, {
      id: 'cs_test_someone_else',
      metadata: { reference: 'NotOurReference1234567890' },
      client_reference_id: null,
    });
    const ignored = await fake.sendEvent(foreign);
    expect(JSON.parse(ignored.body)).toMatchObject({ outcome: 'ignored' });
  });

  it('refunds rather than ships when the paid amount differs from the payment', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    const { reference, sessionId } = await startCardCheckout(product.id);
    const res = await fake.sendEvent(completedEvent(fake.session(sessionId)!.session, { amount_total: 100 }));
    expect(JSON.parse(res.body)).toMatchObject({ outcome: 'failed_order_created' });
    const payment = await paymentOf(reference);
    const [order] = await ordersOf(payment.id);
    expect(order).toMatchObject({ status: 'failed', refund_required: true });
    expect(order!.refund_reason).toContain('does not match');
    expect(await quantityOf(db, product.id)).toBe(1);
    expect((await statusOf(reference)).status).toBe('failed');
  });

  it('answers the payment status: 404 for unknown references, 400 for malformed ones', async () => {
    const unknown = await t.client().get('/api/payments/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin/status');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 'PAYMENT_NOT_FOUND', message: 'Payment not found' },
    });
    const malformed = await t.client().get('/api/payments/short/status');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
    const cancelUnknown = await t
      .client()
      .post('/api/payments/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin/cancel');
    expect(cancelUnknown.status).toBe(404);
  });
});
