import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderPage } from '#common/schemas/admin-orders';
import { REFUND_MESSAGES, type Refund } from '#common/schemas/refund';
import type { Db } from '#server/db/client';
import { guestOrderUrl } from '#server/modules/orders/guest-order.service';
import { queueRefund } from '#server/modules/refunds/refunds.service';
import { checkout } from '../factories/checkout';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

/**
 * Card refunds from the back office (POST /api/admin/orders/:id/refunds), carried out by the refund
 * worker's pass through Stripe's refunds API (the stand-in sees each refund and its idempotency
 * key): full, partial and the rest, refusals (nothing left, too much, a double press), who may
 * refund, bad input, a pending Stripe refund that settles later, a retry after Stripe answered
 * but before the answer was recorded, and an automatic refund queued with queueRefund.
 */
describe.each(BACKENDS)('card refunds on %s', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;
  let c: AdminClients;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: {
        ...stripeEnv(fake),
        CHECKOUT_RATE_LIMIT: '1000',
        CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
        CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '1000',
      },
    });
    fake.setWebhook(async (req) => t.app.request(req));
    db = t.deps.database.db;
    c = await signInClients(t);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** A card order paid on Stripe's page: its id, payment intent and total ($30 + $4.99 shipping). */
  async function paidCardOrder(userClient = t.client()) {
    const { reference } = await checkout(t, {
      paymentMethod: 'card',
      product: { priceCents: 3_000, quantity: 5 },
      client: userClient,
    });
    const session = fake.lastSession()!;
    await fake.completeSession(session.session.id);
    const payment = await db
      .selectFrom('payments')
      .select(['id', 'stripe_payment_intent_id'])
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    const order = await db
      .selectFrom('orders')
      .select(['id', 'amount_cents'])
      .where('payment_id', '=', payment.id)
      .executeTakeFirstOrThrow();
    expect(order.amount_cents).toBe(3_499);
    return { orderId: order.id, paymentId: payment.id, paymentIntent: payment.stripe_payment_intent_id! };
  }

  const refundRow = (id: string) =>
    db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const refundUrl = (orderId: string) => `/api/admin/orders/${orderId}/refunds`;

  it('refunds a whole card order through Stripe, once, audited, mailed and announced', async () => {
    const { orderId, paymentIntent } = await paidCardOrder();
    await db.updateTable('orders').set({ refund_required: true }).where('id', '=', orderId).execute();
    const stripeBefore = fake.refunds.length;

    const created = await json<Refund>(
      await c.admin.post(refundUrl(orderId), { reason: '  Customer returned the tank  ' }),
      201,
    );
    expect(created).toMatchObject({
      method: 'card',
      kind: 'manual',
      scope: 'order',
      status: 'pending',
      amountCents: 3_499,
      cryptoAmount: null,
      reason: 'Customer returned the tank',
      stripeRefundId: null,
    });
    // Nothing left to refund as soon as it is decided: the order no longer asks for one.
    const order = await db
      .selectFrom('orders')
      .select('refund_required')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(order.refund_required).toBe(false);

    await t.deps.refunds.processDue();
    expect(fake.refunds.length).toBe(stripeBefore + 1);
    const atStripe = fake.refunds.at(-1)!;
    expect(atStripe.idempotencyKey).toBe(`refund-${created.id}`);
    expect(atStripe.refund).toMatchObject({
      amount: 3_499,
      payment_intent: paymentIntent,
      status: 'succeeded',
      metadata: { refund_id: created.id, order_id: orderId },
    });
    expect(fake.refundableOf(paymentIntent)).toBe(0);
    const row = await refundRow(created.id);
    expect(row).toMatchObject({
      status: 'succeeded',
      stripe_refund_id: atStripe.refund.id,
      created_by: c.adminId,
    });
    expect(row.completed_at).not.toBeNull();

    // Another pass does nothing more at Stripe.
    await t.deps.refunds.processDue();
    expect(fake.refunds.length).toBe(stripeBefore + 1);

    const audit = await json<{ items: Array<{ action: string; details: Record<string, unknown> }> }>(
      await c.admin.get('/api/admin/audit?action=refund_order'),
      200,
    );
    expect(audit.items.find((e) => e.details.refundId === created.id)).toMatchObject({
      details: {
        orderId,
        amountCents: 3_499,
        method: 'card',
        reason: 'Customer returned the tank',
        full: true,
      },
    });
    const mail = await db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('event_key', '=', `order-refunded:${created.id}`)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/^Order #\w+: refunded$/);
    expect(mail.text_body).toContain('$34.99');
    expect(mail.text_body).toContain('Reason: Customer returned the tank');
    expect(mail.text_body).toContain(`/orders/${orderId}?token=`);

    const again = await json<ErrorJson>(await c.admin.post(refundUrl(orderId), { reason: 'Again' }), 409);
    expect(again.error.message).toBe(REFUND_MESSAGES.nothingLeft);
  });

  it('refunds part, refuses more than is left, then refunds the rest', async () => {
    const { orderId, paymentIntent } = await paidCardOrder();
    const part = await json<Refund>(
      await c.admin.post(refundUrl(orderId), { amountCents: 1_000, reason: 'Stain on the hem' }),
      201,
    );
    expect(part.amountCents).toBe(1_000);
    const tooMuch = await json<ErrorJson>(
      await c.admin.post(refundUrl(orderId), { amountCents: 2_500, reason: 'Too much' }),
      409,
    );
    expect(tooMuch.error).toMatchObject({ code: 'CONFLICT', message: REFUND_MESSAGES.tooMuch });

    const rest = await json<Refund>(
      await c.admin.post(refundUrl(orderId), { reason: 'Returned after all' }),
      201,
    );
    expect(rest.amountCents).toBe(2_499);
    await t.deps.refunds.processDue();
    const atStripe = fake.refunds.filter((r) => r.refund.payment_intent === paymentIntent);
    expect(atStripe.map((r) => [r.idempotencyKey, r.refund.amount])).toEqual([
      [`refund-${part.id}`, 1_000],
      [`refund-${rest.id}`, 2_499],
    ]);
    expect(fake.refundableOf(paymentIntent)).toBe(0);
    expect((await refundRow(part.id)).status).toBe('succeeded');
    expect((await refundRow(rest.id)).status).toBe('succeeded');
    const none = await json<ErrorJson>(
      await c.admin.post(refundUrl(orderId), { amountCents: 1, reason: 'x' }),
      409,
    );
    expect(none.error.message).toBe(REFUND_MESSAGES.nothingLeft);
  });

  it('a double press (two requests at once) makes exactly one refund', async () => {
    const { orderId, paymentIntent } = await paidCardOrder();
    const [a, b] = await Promise.all([
      c.admin.post(refundUrl(orderId), { reason: 'Double press' }),
      c.admin.post(refundUrl(orderId), { reason: 'Double press' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const refused = (a.status === 409 ? a : b).json() as Promise<ErrorJson>;
    expect((await refused).error.message).toBe(REFUND_MESSAGES.nothingLeft);
    const rows = await db
      .selectFrom('refunds')
      .select('amount_cents')
      .where('order_id', '=', orderId)
      .execute();
    expect(rows).toEqual([{ amount_cents: 3_499 }]);
    await t.deps.refunds.processDue();
    expect(fake.refunds.filter((r) => r.refund.payment_intent === paymentIntent)).toHaveLength(1);
  });

  it('answers 401 to anonymous, 403 to a customer, 404 to an unknown order, 400 to bad input', async () => {
    const { orderId } = await paidCardOrder();
    const anonymous = await json<ErrorJson>(await c.anonymous.post(refundUrl(orderId), { reason: 'x' }), 401);
    expect(anonymous.error.code).toBe('UNAUTHENTICATED');
    const customer = await json<ErrorJson>(await c.customer.post(refundUrl(orderId), { reason: 'x' }), 403);
    expect(customer.error.code).toBe('FORBIDDEN');
    // A cross-site form post is refused before anything else.
    const foreign = await c.admin.post(
      refundUrl(orderId),
      { reason: 'x' },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(foreign.status).toBe(403);

    const missingReason = await json<ErrorJson>(await c.admin.post(refundUrl(orderId), {}), 400);
    expect(missingReason.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { reason: expect.any(String) },
    });
    const blankReason = await json<ErrorJson>(await c.admin.post(refundUrl(orderId), { reason: '   ' }), 400);
    expect(blankReason.error.fields?.reason).toBe('Please give a reason for the refund');
    for (const amountCents of [0, -5, 12.5, '100']) {
      const res = await c.admin.post(refundUrl(orderId), { amountCents, reason: 'x' });
      expect(res.status, `amountCents ${String(amountCents)}`).toBe(400);
    }
    expect((await c.admin.post(refundUrl(orderId), { reason: 'x', status: 'succeeded' })).status).toBe(400);
    expect((await c.admin.post(refundUrl(orderId), { reason: 'x'.repeat(501) })).status).toBe(400);
    const unknown = await c.admin.post(refundUrl('00000000-0000-4000-8000-000000000000'), { reason: 'x' });
    expect(unknown.status).toBe(404);
    expect((await c.admin.post(refundUrl('not-a-uuid'), { reason: 'x' })).status).toBe(404);
    expect(await db.selectFrom('refunds').select('id').where('order_id', '=', orderId).execute()).toEqual([]);
  });

  it('a refund Stripe holds as pending is followed until it succeeds', async () => {
    const { orderId } = await paidCardOrder();
    fake.setRefundStatus('pending');
    try {
      const created = await json<Refund>(
        await c.admin.post(refundUrl(orderId), { reason: 'Bank is slow' }),
        201,
      );
      await t.deps.refunds.processDue();
      const sent = await refundRow(created.id);
      expect(sent.status).toBe('sent');
      expect(sent.stripe_refund_id).toMatch(/^re_test_/);
      fake.settleRefund(sent.stripe_refund_id!);
      // Its lease (the time before it is asked again) runs out.
      await db
        .updateTable('refunds')
        .set({ lease_until: new Date(Date.now() - 1) })
        .where('id', '=', created.id)
        .execute();
      await t.deps.refunds.processDue();
      expect(await refundRow(created.id)).toMatchObject({
        status: 'succeeded',
        stripe_refund_id: sent.stripe_refund_id,
      });
      expect(fake.refunds.filter((r) => r.refund.metadata.refund_id === created.id)).toHaveLength(1);
    } finally {
      fake.setRefundStatus('succeeded');
    }
  });

  it('a retry after Stripe answered but before it was recorded gets the same Stripe refund back', async () => {
    const { orderId } = await paidCardOrder();
    const created = await json<Refund>(
      await c.admin.post(refundUrl(orderId), { amountCents: 500, reason: 'Retry' }),
      201,
    );
    await t.deps.refunds.processDue();
    const first = await refundRow(created.id);
    const count = fake.refunds.length;
    // As if the instance died after Stripe's answer: the row still says pending, its lease ran out.
    await db
      .updateTable('refunds')
      .set({ status: 'pending', stripe_refund_id: null, completed_at: null, lease_until: null })
      .where('id', '=', created.id)
      .execute();
    await t.deps.refunds.processDue();
    expect(fake.refunds.length).toBe(count);
    expect(await refundRow(created.id)).toMatchObject({
      status: 'succeeded',
      stripe_refund_id: first.stripe_refund_id,
    });
  });

  it('carries out an automatic refund queued with queueRefund', async () => {
    const { orderId, paymentId, paymentIntent } = await paidCardOrder();
    const id = await db.transaction().execute((trx) =>
      queueRefund(trx, {
        paymentId,
        orderId,
        transferId: null,
        method: 'card',
        kind: 'automatic',
        scope: 'order',
        amountCents: 3_499,
        cryptoAmount: null,
        cryptoMint: null,
        destination: null,
        reason: 'The items sold out before the payment was confirmed',
        createdBy: null,
      }),
    );
    expect(id).toEqual(expect.any(String));
    t.deps.refunds.kick(); // no worker runs in this test app: a kick is harmless
    await t.deps.refunds.processDue();
    expect(await refundRow(id!)).toMatchObject({ status: 'succeeded', kind: 'automatic', created_by: null });
    expect(fake.refundableOf(paymentIntent)).toBe(0);
    const views = await t.deps.refunds.view();
    const { findRefundsOfOrders, findRefundsOfPayment } =
      await import('#server/modules/refunds/refunds.service');
    const byOrder = await findRefundsOfOrders(db, [orderId], views);
    expect(byOrder.get(orderId)).toEqual([
      expect.objectContaining({ id, status: 'succeeded', kind: 'automatic', amountCents: 3_499 }),
    ]);
    expect(await findRefundsOfPayment(db, paymentId)).toEqual(byOrder.get(orderId));
  });

  it('refuses a Stripe refund Stripe refuses (an unknown payment intent) as failed, leaving the amount refundable', async () => {
    const { orderId, paymentId } = await paidCardOrder();
    await db
      .updateTable('payments')
      .set({ stripe_payment_intent_id: 'pi_test_unknown' })
      .where('id', '=', paymentId)
      .execute();
    const created = await json<Refund>(
      await c.admin.post(refundUrl(orderId), { reason: 'Unknown intent' }),
      201,
    );
    await t.deps.refunds.processDue();
    const row = await refundRow(created.id);
    expect(row.status).toBe('failed');
    expect(row.error).toContain("No such payment_intent: 'pi_test_unknown'");
    // The admin's order view says why; the shopper's views never carry the error.
    const page = await json<AdminOrderPage>(
      await c.admin.get(`/api/admin/orders?search=${orderId.slice(0, 8)}`),
      200,
    );
    const shown = page.items.find((o) => o.id === orderId)?.refunds.find((r) => r.id === created.id);
    expect(shown).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('No such payment_intent'),
    });
    const link = new URL(
      guestOrderUrl({ publicUrl: t.deps.config.publicUrl, secret: t.deps.config.authSecret }, orderId),
    );
    const guest = await t.deps.guestOrders.get(orderId, link.searchParams.get('token')!);
    expect(guest.refunds.find((r) => r.id === created.id)).toMatchObject({ status: 'failed', error: null });
    // A failed refund returned nothing: the whole amount can be refunded again.
    await json<Refund>(await c.admin.post(refundUrl(orderId), { amountCents: 3_499, reason: 'Again' }), 201);
  });
});
