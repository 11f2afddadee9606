import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckoutResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import type { FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { signUpAndIn } from '../helpers/sign-up';
import type { TestApp } from '../helpers/test-app';
import {
  checkoutRequests,
  insertProduct,
  line,
  SHIPPING,
  startCheckoutApp,
  type CheckoutApp,
} from './checkout-test-kit';

/**
 * A checkout and the shopper's account: the account asked for at checkout is created with the
 * order, an existing one is left untouched, and a signed-in shopper's checkout is theirs.
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

  const { checkout, cardCheckout } = checkoutRequests(() => t);

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
});
