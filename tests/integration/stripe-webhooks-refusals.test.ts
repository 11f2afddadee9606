import Stripe from 'stripe';
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
 * Events the webhook refuses (400, changing nothing: no valid signature, malformed, a payment
 * intent another payment has) or acknowledges and ignores (types it does not handle, sessions
 * that are not the shop's).
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

  const { startCardCheckout, paymentOf, ordersOf, completedEvent } = webhookRequests(() => app);

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
});
