import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  CheckoutConfigResponse,
  CheckoutResponse,
  PaymentStatusResponse,
} from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import type { FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { takeServerErrors } from '../helpers/server-errors';
import { TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import {
  checkoutRequests,
  errorOf,
  insertProduct,
  line,
  quantityOf,
  startCheckoutApp,
  type CheckoutApp,
} from './checkout-test-kit';

/**
 * POST /api/checkout through the real app, with the real Stripe SDK talking to the local Stripe
 * stand-in over HTTP: server-side pricing, stock reservation and the card session, and how a
 * checkout ends without being paid (its reservation expires, the shopper cancels, Stripe fails).
 * Refused checkouts: checkout-refusals.test.ts; the account created with an order:
 * checkout-accounts.test.ts; Stripe keys from the settings: checkout-stripe-keys.test.ts.
 */

describe.each(BACKENDS)('checkout on %s', (backend) => {
  let app: CheckoutApp;
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    app = await startCheckoutApp(backend);
    ({ fake, t, db } = app);
  });
  afterAll(() => app?.close());

  const { cardCheckout } = checkoutRequests(() => t);

  it('says card payments are enabled, and crypto on the local ledger', async () => {
    const res = await t.client().get('/api/checkout/config');
    expect(res.status).toBe(200);
    expect((await res.json()) as CheckoutConfigResponse).toEqual({
      card: { enabled: true },
      crypto: { enabled: true },
      reservationMinutes: 5,
    });
  });

  it('prices from the database, ignores any amount sent, reserves the stock and starts a Stripe session', async () => {
    const product = await insertProduct(db, { priceCents: 2_000, quantity: 3 });
    const started = Date.now();
    const res = await cardCheckout([{ ...line(product.id, 2), price: 1, priceCents: 1, amount: 1 }], {
      amount: 0.01,
      total: 1,
      subtotalCents: 1,
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as CheckoutResponse;
    expect(body.reference).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40,44}$/);
    expect(body.amounts).toEqual({
      subtotalCents: 4_000,
      shippingCents: 499,
      discountCents: 0,
      totalCents: 4_499,
    });
    expect(body.lines).toEqual([
      {
        productId: product.id,
        title: product.title,
        image: '/uploads/products/test-800.webp',
        category: 'womens-leggings',
        size: 'S',
        color: 'Black',
        quantity: 2,
        priceCents: 2_000,
        lineTotalCents: 4_000,
      },
    ]);

    // The Stripe session was made from the database prices.
    const record = fake.lastSession()!;
    expect(body.checkoutUrl).toBe(`${fake.url}/c/pay/${record.session.id}`);
    expect(record.lineItems).toEqual([
      {
        name: `${product.title} · S · Black`,
        images: [`${TEST_ORIGIN}/uploads/products/test-800.webp`],
        currency: 'usd',
        unitAmount: 2_000,
        quantity: 2,
      },
      {
        name: 'Shipping (USPS, 3-5 business days)',
        images: [],
        currency: 'usd',
        unitAmount: 499,
        quantity: 1,
      },
    ]);
    expect(record.session).toMatchObject({
      amount_total: 4_499,
      currency: 'usd',
      client_reference_id: body.reference,
      metadata: { reference: body.reference },
      customer_email: 'ada@example.com',
      success_url: `${TEST_ORIGIN}/success?reference=${body.reference}&token=${body.accessToken}`,
      cancel_url: `${TEST_ORIGIN}/?checkout=cancelled&reference=${body.reference}`,
      status: 'open',
      payment_status: 'unpaid',
    });
    // Stripe's minimum session life is 30 minutes; the reservation outlives the session by a grace period.
    const sessionMinutes = (record.session.expires_at * 1000 - started) / 60_000;
    expect(sessionMinutes).toBeGreaterThan(30.5);
    expect(sessionMinutes).toBeLessThan(31.5);
    expect(new Date(body.expiresAt).getTime()).toBe(record.session.expires_at * 1000 + 2 * 60_000);

    // Stock is taken now, the payment is pending, and there is no order yet.
    expect(await quantityOf(db, product.id)).toBe(1);
    const payment = await db
      .selectFrom('payments')
      .selectAll()
      .where('reference', '=', body.reference)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      status: 'pending',
      method: 'card',
      amount_cents: 4_499,
      subtotal_cents: 4_000,
      shipping_cents: 499,
      stripe_session_id: record.session.id,
      user_id: null,
      account_password_hash: null,
    });
    expect(payment.shipping_info).toMatchObject({ email: 'ada@example.com', phone: '(555) 123-4567' });
    const reservations = await db
      .selectFrom('stock_reservations')
      .selectAll()
      .where('payment_id', '=', payment.id)
      .execute();
    expect(reservations).toHaveLength(1);
    expect(reservations[0]).toMatchObject({
      product_id: product.id,
      quantity: 2,
      released_at: null,
      consumed_at: null,
    });
    const events = await db
      .selectFrom('payment_events')
      .select(['from_status', 'to_status'])
      .where('payment_id', '=', payment.id)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { from_status: null, to_status: 'pending' },
      { from_status: 'pending', to_status: 'pending' },
    ]);
    const orders = await db.selectFrom('orders').select('id').where('payment_id', '=', payment.id).execute();
    expect(orders).toEqual([]);

    const status = await t.client().get(`/api/payments/${body.reference}/status`);
    expect(status.status).toBe(200);
    expect((await status.json()) as PaymentStatusResponse).toEqual({
      status: 'pending',
      transaction_signature: null,
      order_id: null,
      payment_method: 'card',
      demo: false,
    });
  });

  it('publishes stock.changed on the catalog topic after the reservation commits', async () => {
    const product = await insertProduct(db);
    const seen: Array<{ type: string; data: unknown }> = [];
    const unsubscribe = t.deps.events.subscribe(['catalog'], (e) =>
      seen.push({ type: e.type, data: e.data }),
    );
    try {
      expect((await cardCheckout([line(product.id)])).status).toBe(201);
      await vi.waitFor(() =>
        expect(seen).toContainEqual({ type: 'stock.changed', data: { productIds: [product.id] } }),
      );
    } finally {
      unsubscribe();
    }
  });

  it('ships free from 50 USD and charges 4.99 below', async () => {
    const at50 = await insertProduct(db, { priceCents: 2_500 });
    const res = await cardCheckout([line(at50.id, 2)]);
    expect(res.status).toBe(201);
    expect(((await res.json()) as CheckoutResponse).amounts).toEqual({
      subtotalCents: 5_000,
      shippingCents: 0,
      discountCents: 0,
      totalCents: 5_000,
    });
    expect(fake.lastSession()!.lineItems.map((l) => l.name)).not.toContain(
      'Shipping (USPS, 3-5 business days)',
    );
    expect(fake.lastSession()!.session.amount_total).toBe(5_000);

    const below = await insertProduct(db, { priceCents: 4_999 });
    const res2 = await cardCheckout([line(below.id, 1)]);
    expect(((await res2.json()) as CheckoutResponse).amounts).toEqual({
      subtotalCents: 4_999,
      shippingCents: 499,
      discountCents: 0,
      totalCents: 5_498,
    });
    expect(fake.lastSession()!.session.amount_total).toBe(5_498);
  });

  it('returns the stock of expired reservations and expires their Stripe sessions', async () => {
    // Two of three: an anonymous card checkout that takes a product's last unit holds it only for
    // RESERVATION_MINUTES (decision 016, ipv6-clients.test.ts).
    const product = await insertProduct(db, { quantity: 3 });
    const res = await cardCheckout([line(product.id, 2)]);
    const { reference } = (await res.json()) as CheckoutResponse;
    expect(await quantityOf(db, product.id)).toBe(1);
    const sessionId = fake.lastSession()!.session.id;

    // Ten minutes on, a card reservation is still held (it lives as long as the Stripe session).
    await sweepExpiredReservations(t.deps, new Date(Date.now() + 10 * 60_000));
    expect(await quantityOf(db, product.id)).toBe(1);

    const later = new Date(Date.now() + 40 * 60_000);
    expect(await sweepExpiredReservations(t.deps, later)).toBeGreaterThanOrEqual(1);
    expect(await quantityOf(db, product.id)).toBe(3);
    expect(fake.session(sessionId)!.session.status).toBe('expired');
    const payment = await db
      .selectFrom('payments')
      .select(['id', 'status'])
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe('expired');
    const reservation = await db
      .selectFrom('stock_reservations')
      .select(['released_at', 'consumed_at'])
      .where('payment_id', '=', payment.id)
      .executeTakeFirstOrThrow();
    expect(reservation.released_at).not.toBeNull();
    expect(reservation.consumed_at).toBeNull();
    const events = await db
      .selectFrom('payment_events')
      .select(['from_status', 'to_status', 'detail'])
      .where('payment_id', '=', payment.id)
      .orderBy('id')
      .execute();
    expect(events.at(-1)).toMatchObject({
      from_status: 'pending',
      to_status: 'expired',
      detail: { source: 'sweeper' },
    });
    // Stripe's own expiry event arriving afterwards changes nothing.
    expect(fake.deliveries.at(-1)).toMatchObject({ type: 'checkout.session.expired', status: 200 });
    expect(JSON.parse(fake.deliveries.at(-1)!.body)).toMatchObject({ outcome: 'no_change' });

    // A second sweep finds nothing more; the status says expired.
    expect(await sweepExpiredReservations(t.deps, later)).toBe(0);
    expect(await quantityOf(db, product.id)).toBe(3);
    const status = await t.client().get(`/api/payments/${reference}/status`);
    expect(await status.json()).toEqual({
      status: 'expired',
      transaction_signature: null,
      order_id: null,
      payment_method: 'card',
      demo: false,
      message: 'Payment expired',
    });
  });

  it('lets the shopper cancel: the Stripe session is expired first, then the stock returns', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    const { reference } = (await (await cardCheckout([line(product.id)])).json()) as CheckoutResponse;
    const sessionId = fake.lastSession()!.session.id;
    expect(await quantityOf(db, product.id)).toBe(0);
    const res = await t.client().post(`/api/payments/${reference}/cancel`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as PaymentStatusResponse).status).toBe('expired');
    expect(fake.session(sessionId)!.session.status).toBe('expired');
    expect(await quantityOf(db, product.id)).toBe(1);
    // Cancelling again is harmless.
    expect((await t.client().post(`/api/payments/${reference}/cancel`)).status).toBe(200);
    expect(await quantityOf(db, product.id)).toBe(1);

    // When the cancel gets there before Stripe's expiry event, it ends the payment itself.
    const second = (await (await cardCheckout([line(product.id)])).json()) as CheckoutResponse;
    fake.setWebhook(undefined);
    try {
      const cancelled = await t.client().post(`/api/payments/${second.reference}/cancel`);
      expect(await cancelled.json()).toEqual({
        status: 'expired',
        transaction_signature: null,
        order_id: null,
        payment_method: 'card',
        demo: false,
        message: 'Payment cancelled',
      });
    } finally {
      fake.setWebhook(async (req) => t.app.request(req));
    }
    expect(await quantityOf(db, product.id)).toBe(1);
    const events = await db
      .selectFrom('payment_events')
      .innerJoin('payments', 'payments.id', 'payment_events.payment_id')
      .select(['payment_events.to_status', 'payment_events.detail'])
      .where('payments.reference', '=', second.reference)
      .orderBy('payment_events.id', 'desc')
      .executeTakeFirstOrThrow();
    expect(events).toMatchObject({ to_status: 'cancelled', detail: { source: 'shopper' } });
  });

  it('gives the stock back and answers 503 when Stripe fails', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    fake.failNextCreate(500, 5);
    const res = await cardCheckout([line(product.id)]);
    fake.failNextCreate(500, 0);
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toEqual({ code: 'UNAVAILABLE', message: 'Failed to create checkout session' });
    // The operator learns why from the log.
    expect(takeServerErrors(/Stripe Checkout Session could not be created/)).toHaveLength(1);
    expect(await quantityOf(db, product.id)).toBe(1);
    const payment = await db
      .selectFrom('payments')
      .select(['status', 'error'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe('failed');
  });
});
