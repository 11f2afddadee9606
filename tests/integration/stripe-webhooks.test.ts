import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import type { Db } from '#server/db/client';
import type { FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import type { TestApp } from '../helpers/test-app';
import {
  insertProduct,
  quantityOf,
  startWebhookApp,
  webhookRequests,
  type WebhookApp,
} from './stripe-webhooks-test-kit';

/**
 * POST /api/webhooks/stripe and GET /api/payments/:reference/status: a paid session becomes one
 * order exactly once, duplicates and out-of-order events are harmless, an expired session gives
 * its stock back, the status answers. Late payments refunded: stripe-webhooks-refunds.test.ts;
 * events refused or ignored: stripe-webhooks-refusals.test.ts.
 */

describe.each(BACKENDS)('Stripe webhooks and payment status on %s', (backend) => {
  let app: WebhookApp;
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    app = await startWebhookApp(backend);
    ({ fake, t, db } = app);
  });
  afterAll(() => app?.close());

  const { startCardCheckout, paymentOf, ordersOf, poolRowsOf, statusOf, completedEvent } = webhookRequests(
    () => app,
  );

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
