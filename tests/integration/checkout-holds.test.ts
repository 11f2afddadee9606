import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import type { CheckoutResponse, PaymentStatusResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import { reserveStock } from '#server/modules/catalog/stock.service';
import { newPaymentReference } from '#server/modules/payments/payment-reference';
import { SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, TestClient, type TestApp } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';

/**
 * What one checkout and one client may hold (issue: three anonymous checkouts of 50 lines x 5
 * units emptied the demo shop for half an hour). Defaults: 10 units and $2,000 per checkout; per
 * client address, signed-in user or cart, 3 open checkouts and 15 held units.
 */

describe.each(BACKENDS)('stock holds per checkout and per client (%s)', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      // What one checkout and one client may hold; what anonymous checkouts hold together (a share
      // of each product) is tested in ipv6-clients.test.ts.
      env: { ...stripeEnv(fake), ANONYMOUS_HOLD_SHARE_PERCENT: '100' },
    });
    fake.setWebhook(async (req) => t.app.request(req));
    db = t.deps.database.db;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const product = (overrides: { quantity?: number; priceCents?: number } = {}) =>
    createProduct(db, { sizes: ['M'], colors: ['Black'], sizeGuide: null, quantity: 50, ...overrides });
  const buyable = async (id: string) =>
    (await db.selectFrom('products').select('quantity').where('id', '=', id).executeTakeFirstOrThrow())
      .quantity;
  const checkout = (client: TestClient, lines: Array<{ id: string; quantity: number }>, cartId?: string) =>
    client.post('/api/checkout', {
      items: lines.map((l) => ({ productId: l.id, size: 'M', color: 'Black', quantity: l.quantity })),
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
      ...(cartId ? { cartId } : {}),
    });
  const errorOf = async (res: Response) => ((await res.json()) as ErrorBody).error;

  it('bounds one checkout: at most 10 units and $2,000 of items', async () => {
    const lines = await Promise.all(Array.from({ length: 3 }, () => product()));
    const tooMany = await checkout(t.client({ ip: '198.51.100.1' }), [
      { id: lines[0]!.id, quantity: 5 },
      { id: lines[1]!.id, quantity: 5 },
      { id: lines[2]!.id, quantity: 1 },
    ]);
    expect(tooMany.status).toBe(400);
    expect((await errorOf(tooMany)).fields?.items).toBe(
      'A checkout can hold at most 10 items. Please check out the rest separately.',
    );
    const pricey = await product({ priceCents: 120_000 });
    const tooDear = await checkout(t.client({ ip: '198.51.100.1' }), [{ id: pricey.id, quantity: 2 }]);
    expect(tooDear.status).toBe(400);
    expect((await errorOf(tooDear)).fields?.items).toBe(
      'A checkout can hold at most $2,000.00 of items. Please check out the rest separately.',
    );
    for (const p of [...lines, pricey]) expect(await buyable(p.id)).toBe(p.quantity);
  });

  it('lets one client hold 3 open checkouts while another client can still buy', async () => {
    const scarce = await product({ quantity: 4 });
    const hoarder = '203.0.113.66';
    for (let i = 0; i < 3; i++) {
      expect((await checkout(t.client({ ip: hoarder }), [{ id: scarce.id, quantity: 1 }])).status).toBe(201);
    }
    const fourth = await checkout(t.client({ ip: hoarder }), [{ id: scarce.id, quantity: 1 }]);
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await errorOf(fourth)).toEqual({
      code: 'RATE_LIMITED',
      message:
        'You already have checkouts in progress. Complete or cancel one, or wait a few minutes for them to expire.',
    });
    // The last unit is still there for a real shopper.
    expect(await buyable(scarce.id)).toBe(1);
    const shopper = await checkout(t.client({ ip: '198.51.100.77' }), [{ id: scarce.id, quantity: 1 }]);
    expect(shopper.status).toBe(201);
    expect(await buyable(scarce.id)).toBe(0);
  });

  it('caps the units one client holds across its checkouts, and counts a signed-in user wherever they are', async () => {
    const a = await product();
    const b = await product();
    const ip = '203.0.113.70';
    expect(
      (
        await checkout(t.client({ ip }), [
          { id: a.id, quantity: 5 },
          { id: b.id, quantity: 3 },
        ])
      ).status,
    ).toBe(201);
    const over = await checkout(t.client({ ip }), [
      { id: a.id, quantity: 5 },
      { id: b.id, quantity: 3 },
    ]);
    expect(over.status).toBe(429);
    expect((await errorOf(over)).message).toMatch(/already hold as many items/);
    expect(
      (
        await checkout(t.client({ ip }), [
          { id: a.id, quantity: 5 },
          { id: b.id, quantity: 2 },
        ])
      ).status,
    ).toBe(201);

    // A signed-in shopper changing address is still the same holder.
    const user = t.client({ ip: '203.0.113.80' });
    expect(
      (
        await signUpAndIn(user, {
          email: `holder-${backend}@example.com`,
          password: 'a long pass phrase 42',
        })
      ).status,
    ).toBe(200);
    for (let i = 0; i < 3; i++) {
      const from = new (Object.getPrototypeOf(user).constructor as typeof TestClient)(
        t.app,
        `203.0.113.${90 + i}`,
      );
      for (const [k, v] of user.cookies) from.cookies.set(k, v);
      expect((await checkout(from, [{ id: a.id, quantity: 1 }])).status).toBe(201);
    }
    const roaming = new TestClient(t.app, '203.0.113.99');
    for (const [k, v] of user.cookies) roaming.cookies.set(k, v);
    expect((await checkout(roaming, [{ id: a.id, quantity: 1 }])).status).toBe(429);
  });

  it('replaces the earlier checkout of the same cart, releasing its hold and its Stripe session', async () => {
    const oneOff = await product({ quantity: 1 });
    const cartId = crypto.randomUUID();
    const first = await checkout(
      t.client({ ip: '198.51.100.120' }),
      [{ id: oneOff.id, quantity: 1 }],
      cartId,
    );
    expect(first.status).toBe(201);
    const firstRef = ((await first.json()) as CheckoutResponse).reference;
    expect(await buyable(oneOff.id)).toBe(0);

    // The shopper goes back and checks out again from the same cart: no "sold out" against themself.
    const second = await checkout(
      t.client({ ip: '198.51.100.120' }),
      [{ id: oneOff.id, quantity: 1 }],
      cartId,
    );
    expect(second.status, await second.clone().text()).toBe(201);
    expect(await buyable(oneOff.id)).toBe(0);
    const status = (await (
      await t.client().get(`/api/payments/${firstRef}/status`)
    ).json()) as PaymentStatusResponse;
    expect(status.status).not.toBe('pending');
    const firstSession = fake.sessions.find((s) => s.session.metadata.reference === firstRef)!;
    expect(firstSession.session.status).toBe('expired');
    const held = await db
      .selectFrom('stock_reservations')
      .select((eb) => eb.fn.sum<number>('quantity').as('units'))
      .where('product_id', '=', oneOff.id)
      .where('released_at', 'is', null)
      .where('consumed_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(held.units)).toBe(1);
  });

  it('releases a checkout that never got its Stripe session when the server starts, not after half an hour', async () => {
    const stuck = await product({ quantity: 2 });
    const normal = await product({ quantity: 2 });
    // A checkout whose server stopped between reserving and creating the Stripe session.
    await db.transaction().execute(async (trx) => {
      const payment = await t.deps.payments.recordPending(trx, {
        reference: newPaymentReference(),
        method: 'card',
        amounts: { subtotalCents: 4000, shippingCents: 0, discountCents: 0, totalCents: 4000 },
        lines: [],
        shippingInfo: SHIPPING_INFO,
        userId: null,
        accountPasswordHash: null,
        expiresAt: new Date(Date.now() + 33 * 60_000),
      });
      await reserveStock(
        trx,
        payment.id,
        [{ productId: stuck.id, title: 'Stuck', quantity: 2 }],
        new Date(Date.now() + 33 * 60_000),
      );
    });
    expect(
      (await checkout(t.client({ ip: '198.51.100.130' }), [{ id: normal.id, quantity: 2 }])).status,
    ).toBe(201);
    expect(await buyable(stuck.id)).toBe(0);

    // The sweep that runs when the server starts (and every SWEEP_INTERVAL_SECONDS), a few
    // minutes on: the session-less hold is gone, the one with a live Stripe session stays.
    await sweepExpiredReservations(t.deps, new Date(Date.now() + 3 * 60_000));
    expect(await buyable(stuck.id)).toBe(2);
    expect(await buyable(normal.id)).toBe(0);
  });
});
