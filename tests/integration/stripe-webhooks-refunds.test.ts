import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import type { FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import type { TestApp } from '../helpers/test-app';
import {
  insertProduct,
  quantityOf,
  SHIPPING,
  startWebhookApp,
  webhookRequests,
  type WebhookApp,
} from './stripe-webhooks-test-kit';

/**
 * Payments the shop cannot ship: a confirmation after the stock was sold (all of an order's stock
 * or none), after the product was deleted, or for another amount than the payment's becomes a
 * failed order marked for refund, refunded in full.
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
});
