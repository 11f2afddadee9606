import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorBody } from '#common/errors';
import type {
  CheckoutConfigResponse,
  CheckoutResponse,
  PaymentStatusResponse,
} from '#common/schemas/checkout';
import { type Database, type Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import {
  BACKENDS,
  createScratchDatabase,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import { openTestDatabase, startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import { takeServerErrors } from '../helpers/server-errors';
import { signUpAndIn } from '../helpers/sign-up';

/**
 * POST /api/checkout through the real app, with the real Stripe SDK talking to the local Stripe
 * stand-in over HTTP: server-side pricing, stock reservation and its expiry, the card session,
 * configuration states and the account created with an order.
 */

const SHIPPING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'Ada@Example.com',
  phone: '(555) 123-4567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

let productCounter = 0;
async function insertProduct(
  db: Db,
  overrides: Partial<{
    title: string;
    priceCents: number;
    quantity: number;
    sizes: string[];
    colors: string[];
  }> = {},
) {
  const title = overrides.title ?? `Test Legging ${++productCounter}`;
  const row = await db
    .insertInto('products')
    .values({
      title,
      brand: 'Lululemon',
      price_cents: overrides.priceCents ?? 2_000,
      images: ['products/test-800.webp'],
      quantity: overrides.quantity ?? 3,
      sizes: overrides.sizes ?? ['S', 'M'],
      colors: overrides.colors ?? ['Black', 'Navy'],
      gender: 'womens',
      category: 'womens-leggings',
      shipping_weight: '0.5',
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

async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}

const line = (
  productId: string,
  quantity = 1,
  size: string | null = 'S',
  color: string | null = 'Black',
) => ({
  productId,
  size,
  color,
  quantity,
});

describe.each(BACKENDS)('checkout on %s', (backend) => {
  let scratch: ScratchDatabase;
  let database: Database;
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

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
        // One client holds many checkouts at once here (each test takes its own products), and
        // anonymous checkouts take whole products (their share is tested in ipv6-clients.test.ts).
        CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
        CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '100000',
        ANONYMOUS_HOLD_SHARE_PERCENT: '100',
      },
    });
    fake.setWebhook(async (req) => t.app.request(req));
    db = t.deps.database.db;
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await scratch?.drop();
    await fake?.close();
  });

  const checkout = (body: unknown, client = t.client()) => client.post('/api/checkout', body);
  const cardCheckout = (items: unknown[], extra: Record<string, unknown> = {}) =>
    checkout({ items, shippingInfo: SHIPPING, paymentMethod: 'card', ...extra });

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

  it('refuses an unknown product with 404 and changes nothing', async () => {
    const product = await insertProduct(db, { quantity: 2 });
    const payments = await db.selectFrom('payments').select('id').execute();
    const res = await cardCheckout([line(product.id), line('00000000-0000-4000-8000-000000000000')]);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({
      code: 'NOT_FOUND',
      message: 'A product in your cart is no longer available',
      fields: { 'items.1.productId': 'A product in your cart is no longer available' },
    });
    expect(await quantityOf(db, product.id)).toBe(2);
    expect(await db.selectFrom('payments').select('id').execute()).toHaveLength(payments.length);
  });

  it('refuses sizes and colours the product does not offer, and missing choices', async () => {
    const product = await insertProduct(db, { title: 'Define Jacket', sizes: ['S', 'M'], colors: ['Black'] });
    const size = await cardCheckout([line(product.id, 1, 'XL')]);
    expect(size.status).toBe(409);
    expect(await errorOf(size)).toMatchObject({
      code: 'CONFLICT',
      message: 'Size XL is not available for Define Jacket',
    });
    const color = await cardCheckout([line(product.id, 1, 'S', 'Pink')]);
    expect(color.status).toBe(409);
    expect(await errorOf(color)).toMatchObject({
      code: 'CONFLICT',
      message: 'Color Pink is not available for Define Jacket',
      fields: { 'items.0.color': 'Color Pink is not available for Define Jacket' },
    });
    const noSize = await cardCheckout([line(product.id, 1, null)]);
    expect(noSize.status).toBe(400);
    expect((await errorOf(noSize)).message).toBe('Please choose a size for Define Jacket');
    const badSize = await cardCheckout([line(product.id, 1, 'XXL')]);
    expect(badSize.status).toBe(400);
    expect(await quantityOf(db, product.id)).toBe(3);
  });

  it('refuses more than is in stock with 409 OUT_OF_STOCK, and more than 5 per line with 400', async () => {
    const product = await insertProduct(db, { title: 'Swiftly Tee', quantity: 1 });
    const res = await cardCheckout([line(product.id, 2)]);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({
      code: 'OUT_OF_STOCK',
      message: 'Only 1 left of Swiftly Tee',
      fields: { 'items.0.quantity': 'Only 1 left of Swiftly Tee' },
    });
    const six = await cardCheckout([line(product.id, 6)]);
    expect(six.status).toBe(400);
    expect((await errorOf(six)).code).toBe('VALIDATION_FAILED');

    expect((await cardCheckout([line(product.id, 1)])).status).toBe(201);
    const soldOut = await cardCheckout([line(product.id, 1)]);
    expect(soldOut.status).toBe(409);
    expect((await errorOf(soldOut)).message).toBe('Swiftly Tee is sold out');
    expect(await quantityOf(db, product.id)).toBe(0);
  });

  it('refuses a total over what a card payment can charge with 400, not 500, and reserves nothing', async () => {
    const pricey = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        insertProduct(db, { title: `Gold Legging ${n}`, priceCents: 100_000_000, quantity: 10 }),
      ),
    );
    const res = await cardCheckout(pricey.map((p) => line(p.id, 5)));
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields).toEqual({ items: error.message });
    for (const p of pricey) expect(await quantityOf(db, p.id)).toBe(10);
  });

  it('limits checkouts per client IP (each holds stock): 429 with Retry-After, nothing reserved', async () => {
    const product = await insertProduct(db, { quantity: 50 });
    const ip = backend === 'pglite' ? '203.0.113.7' : '203.0.113.8';
    /** A checkout as if it came over a socket from `ip` (app.request has no socket otherwise). */
    const checkoutFrom = (from: string) =>
      t.app.request(
        '/api/checkout',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
          body: JSON.stringify({ items: [line(product.id)], shippingInfo: SHIPPING, paymentMethod: 'card' }),
        },
        { incoming: { socket: { remoteAddress: from } } },
      );
    for (let n = 0; n < 20; n++) expect((await checkoutFrom(ip)).status).toBe(201);
    expect(await quantityOf(db, product.id)).toBe(30);

    const limited = await checkoutFrom(ip);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await errorOf(limited)).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many checkout attempts. Please wait a few minutes and try again.',
    });
    expect(await quantityOf(db, product.id)).toBe(30);

    // Another shopper is not affected; a loopback client is counted like any other (a proxy on the
    // shop's machine is named in TRUSTED_PROXIES, see client-address.test.ts).
    expect((await checkoutFrom('198.51.100.20')).status).toBe(201);
    for (let n = 0; n < 20; n++) expect((await checkoutFrom('127.0.0.1')).status).toBe(201);
    expect((await checkoutFrom('127.0.0.1')).status).toBe(429);
    expect(await quantityOf(db, product.id)).toBe(9);
  });

  it('refuses a common or blank password for the account asked for at checkout, reserving nothing', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    for (const password of ['password', '12345678', '        ']) {
      const res = await cardCheckout([line(product.id)], {
        createAccount: { password, confirmPassword: password },
      });
      expect(res.status, password).toBe(400);
      const error = await errorOf(res);
      expect(error.fields?.['createAccount.password']).toMatch(
        /^(This password is too common\. Choose another\.|Password cannot be only spaces)$/,
      );
    }
    expect(await quantityOf(db, product.id)).toBe(1);
  });

  it('validates the cart and the shipping info with the spec messages', async () => {
    const empty = await checkout({ items: [], shippingInfo: SHIPPING, paymentMethod: 'card' });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).fields).toEqual({ items: 'Your cart is empty' });
    const product = await insertProduct(db);
    const missing = await checkout({
      items: [line(product.id)],
      shippingInfo: { ...SHIPPING, city: '', zipCode: ' ' },
      paymentMethod: 'card',
    });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).fields).toEqual({
      'shippingInfo.city': 'Please fill in all required fields: City, ZIP Code',
      'shippingInfo.zipCode': 'Please fill in all required fields: City, ZIP Code',
    });
    const phone = await checkout({
      items: [line(product.id)],
      shippingInfo: { ...SHIPPING, phone: '123' },
      paymentMethod: 'card',
    });
    expect((await errorOf(phone)).fields).toEqual({
      'shippingInfo.phone': 'Please enter a valid phone number (10 digits)',
    });
    const mismatch = await cardCheckout([line(product.id)], {
      createAccount: { password: 'long enough', confirmPassword: 'different' },
    });
    expect(mismatch.status).toBe(400);
    expect((await errorOf(mismatch)).fields).toEqual({
      'createAccount.confirmPassword': 'Passwords do not match',
    });
    expect(await quantityOf(db, product.id)).toBe(3);
  });

  it('answers 503 for crypto methods on a cluster without TOKEN_MINT and SHOP_WALLET, without touching stock', async () => {
    const product = await insertProduct(db);
    // The same database, served by an instance pointed at a real cluster but not told its accounts.
    const remote = await startTestApp({
      backend: t.backend,
      database: t.deps.database,
      env: { SOLANA_RPC_URL: 'http://127.0.0.1:1/rpc' },
    });
    try {
      const config = (await (
        await remote.client().get('/api/checkout/config')
      ).json()) as CheckoutConfigResponse;
      expect(config.crypto).toEqual({ enabled: false });
      for (const paymentMethod of ['sol', 'aelo']) {
        const res = await remote.client().post('/api/checkout', {
          items: [line(product.id)],
          shippingInfo: SHIPPING,
          paymentMethod,
        });
        expect(res.status).toBe(503);
        expect(await errorOf(res)).toEqual({
          code: 'NOT_CONFIGURED',
          message: 'Crypto payments are not configured yet',
        });
      }
    } finally {
      await remote.close();
    }
    expect(await quantityOf(db, product.id)).toBe(3);
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

  it('creates the account asked for at checkout together with the order; the shopper can sign in', async () => {
    const product = await insertProduct(db);
    const email = `new-buyer-${backend}@example.com`;
    const res = await cardCheckout([line(product.id)], {
      shippingInfo: { ...SHIPPING, email },
      createAccount: { password: 'a good password', confirmPassword: 'a good password' },
    });
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as CheckoutResponse;
    const pending = await db
      .selectFrom('payments')
      .select(['id', 'account_password_hash'])
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    expect(pending.account_password_hash).toMatch(/^\$argon2id\$/);
    expect(
      await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();

    await fake.completeSession(fake.lastSession()!.session.id);

    const user = await db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.role).toBe('customer');
    const order = await db
      .selectFrom('orders')
      .select(['user_id', 'status'])
      .where('payment_id', '=', pending.id)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ user_id: user.id, status: 'pending' });
    const confirmed = await db
      .selectFrom('payments')
      .select(['account_password_hash', 'account_outcome'])
      .where('id', '=', pending.id)
      .executeTakeFirstOrThrow();
    expect(confirmed).toEqual({ account_password_hash: null, account_outcome: 'created' });

    const client = t.client();
    const signIn = await client.post('/api/auth/sign-in/email', { email, password: 'a good password' });
    expect(signIn.status).toBe(200);
  });

  it('leaves an existing account untouched and records it', async () => {
    const product = await insertProduct(db);
    const email = `existing-${backend}@example.com`;
    await t.deps.auth.createUser({ email, password: 'original password' });
    const res = await cardCheckout([line(product.id)], {
      shippingInfo: { ...SHIPPING, email },
      createAccount: { password: 'another password', confirmPassword: 'another password' },
    });
    const { reference } = (await res.json()) as CheckoutResponse;
    await fake.completeSession(fake.lastSession()!.session.id);
    const payment = await db
      .selectFrom('payments')
      .select(['id', 'account_outcome', 'account_password_hash'])
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ account_outcome: 'existing', account_password_hash: null });
    const order = await db
      .selectFrom('orders')
      .select('user_id')
      .where('payment_id', '=', payment.id)
      .executeTakeFirstOrThrow();
    expect(order.user_id).toBeNull();
    expect(
      (await t.client().post('/api/auth/sign-in/email', { email, password: 'original password' })).status,
    ).toBe(200);
    expect(
      (await t.client().post('/api/auth/sign-in/email', { email, password: 'another password' })).status,
    ).toBe(401);
  });

  it("puts a signed-in shopper's id on the payment and the order, and tells their orders topic", async () => {
    const client = t.client();
    const signUp = await signUpAndIn(client, {
      email: `signed-in-${backend}@example.com`,
      password: 'customer password',
    });
    const { user } = (await signUp.json()) as { user: { id: string } };
    const seen: string[] = [];
    const unsubscribe = t.deps.events.subscribe([`orders:${user.id}`, 'admin:orders'], (e) =>
      seen.push(`${e.topic} ${e.type}`),
    );
    try {
      const product = await insertProduct(db);
      const res = await checkout(
        { items: [line(product.id)], shippingInfo: SHIPPING, paymentMethod: 'card' },
        client,
      );
      expect(res.status).toBe(201);
      const { reference } = (await res.json()) as CheckoutResponse;
      await fake.completeSession(fake.lastSession()!.session.id);
      const payment = await db
        .selectFrom('payments')
        .select(['id', 'user_id'])
        .where('reference', '=', reference)
        .executeTakeFirstOrThrow();
      expect(payment.user_id).toBe(user.id);
      const order = await db
        .selectFrom('orders')
        .select('user_id')
        .where('payment_id', '=', payment.id)
        .executeTakeFirstOrThrow();
      expect(order.user_id).toBe(user.id);
      await vi.waitFor(() =>
        expect(seen).toEqual(
          expect.arrayContaining([`orders:${user.id} order.created`, 'admin:orders order.created']),
        ),
      );
    } finally {
      unsubscribe();
    }
  });

  describe('keys', () => {
    let bare: TestApp;
    beforeAll(async () => {
      // Same database, no Stripe keys in the environment.
      bare = await startTestApp({ backend, scratch, database, env: { STRIPE_API_URL: fake.url } });
    });
    afterAll(async () => {
      await bare?.deps.settings.setSecret('stripe', 'secret_key', null);
      await bare?.deps.settings.setSecret('stripe', 'webhook_secret', null);
      await bare?.close();
    });

    it('without Stripe keys: 503 NOT_CONFIGURED and the config says card is disabled', async () => {
      const product = await insertProduct(db);
      const config = await bare.client().get('/api/checkout/config');
      expect(((await config.json()) as CheckoutConfigResponse).card).toEqual({ enabled: false });
      const res = await bare
        .client()
        .post('/api/checkout', { items: [line(product.id)], shippingInfo: SHIPPING, paymentMethod: 'card' });
      expect(res.status).toBe(503);
      expect(await errorOf(res)).toEqual({
        code: 'NOT_CONFIGURED',
        message: 'Card payments are not configured',
      });
      expect(await quantityOf(db, product.id)).toBe(3);
      // A signed event waits (503: Stripe retries) until a webhook secret is set; an unsigned one is refused.
      const hook = await bare
        .client()
        .post(
          '/api/webhooks/stripe',
          { type: 'checkout.session.completed' },
          { headers: { 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` } },
        );
      expect(hook.status).toBe(503);
      expect((await bare.client().post('/api/webhooks/stripe', { type: 'x' })).status).toBe(400);
    });

    it('uses keys stored (encrypted) in the admin settings, which win over the environment', async () => {
      await bare.deps.settings.setSecret('stripe', 'secret_key', fake.secretKey);
      await bare.deps.settings.setSecret('stripe', 'webhook_secret', fake.webhookSecret);
      const stored = await db
        .selectFrom('api_configurations')
        .select(['key_name', 'key_value_encrypted'])
        .where('provider', '=', 'stripe')
        .execute();
      expect(stored).toHaveLength(2);
      for (const row of stored) {
        expect(row.key_value_encrypted).toMatch(/^v1\./);
        expect(row.key_value_encrypted).not.toContain(fake.secretKey);
      }
      const config = await bare.client().get('/api/checkout/config');
      expect(((await config.json()) as CheckoutConfigResponse).card).toEqual({ enabled: true });
      const product = await insertProduct(db);
      const res = await bare
        .client()
        .post('/api/checkout', { items: [line(product.id)], shippingInfo: SHIPPING, paymentMethod: 'card' });
      expect(res.status).toBe(201);

      // The main app has another ENCRYPTION_KEY (its own DATA_DIR): it can not read those values
      // and keeps to its environment.
      const other = await insertProduct(db, { quantity: 1 });
      const viaEnv = await cardCheckout([line(other.id)]);
      expect(viaEnv.status).toBe(201);
      await t.client().post(`/api/payments/${((await viaEnv.json()) as CheckoutResponse).reference}/cancel`);
      expect(await quantityOf(db, other.id)).toBe(1);

      // A wrong key in its own settings beats the right one in its environment.
      await t.deps.settings.setSecret('stripe', 'secret_key', 'sk_test_wrong_key_0000');
      const refused = await cardCheckout([line(other.id)]);
      expect(refused.status).toBe(503);
      expect((await errorOf(refused)).message).toBe('Failed to create checkout session');
      expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/checkout/sessions', status: 401 });
      expect(takeServerErrors(/Invalid API Key provided/)).toHaveLength(1);
      expect(await quantityOf(db, other.id)).toBe(1);
      await t.deps.settings.setSecret('stripe', 'secret_key', null);
      expect((await cardCheckout([line(other.id)])).status).toBe(201);
    });
  });
});
