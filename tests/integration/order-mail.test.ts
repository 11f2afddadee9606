/**
 * Order mail and guest links through the real confirmation (a card payment confirmed by the fake
 * Stripe's signed webhook): the confirmation mail is written with the order, once however often
 * the event arrives, and its signed link shows that one order to anyone holding it, and nothing
 * when tampered, expired or pointed at another order; an admin's status or tracking change sends a
 * shipping mail, once per change.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestOrder } from '#common/schemas/guest-order';
import { signLink } from '#server/lib/signed-links';
import { checkout } from '../factories/checkout';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients } from './admin-test-kit';

const SHIPPING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada.guest@example.com',
  phone: '5551234567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

describe.each(BACKENDS)('order mail and guest links on %s', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: {
        ...stripeEnv(fake),
        CHECKOUT_RATE_LIMIT: '1000',
        CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
      },
    });
    fake.setWebhook(async (req) => t.app.request(req));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** A guest's card order, paid: its id. */
  async function paidOrder(
    email = SHIPPING.email,
    createAccount?: { password: string; confirmPassword: string },
  ): Promise<string> {
    const body = await checkout(t, {
      paymentMethod: 'card',
      product: { quantity: 3 },
      shippingInfo: { ...SHIPPING, email },
      createAccount,
    });
    const { session } = fake.lastSession()!;
    await fake.completeSession(session.id);
    // The same event again (Stripe retries): still one order, one mail.
    await fake.sendEvent(fake.buildEvent('checkout.session.completed', session));
    const order = await t.deps.database.db
      .selectFrom('orders')
      .innerJoin('payments', 'payments.id', 'orders.payment_id')
      .select('orders.id')
      .where('payments.reference', '=', body.reference)
      .executeTakeFirstOrThrow();
    return order.id;
  }

  const mailsOf = (key: string) =>
    t.deps.database.db.selectFrom('mail_outbox').selectAll().where('event_key', 'like', `${key}%`).execute();

  /** The guest link in the order's mail file, on the test app (the link's origin is PUBLIC_URL). */
  async function guestLink(orderId: string): Promise<string> {
    await t.deps.mail.sendDue();
    const dir = path.join(t.dataDir, 'outbox');
    const text = readdirSync(dir)
      .map((f) =>
        readFileSync(path.join(dir, f), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '='),
      )
      .find((m) => m.includes(`/orders/${orderId}?token=`));
    expect(text, 'the order mail').toBeDefined();
    expect(text).toMatch(/^Subject: Order #[0-9a-f]{8} confirmed$/m);
    const url = new URL(/https?:\/\/\S+\/orders\/[^\s"<]+/.exec(text!)![0]);
    return `${url.pathname.replace('/orders/', '/api/guest-orders/')}${url.search}`;
  }

  it('mails the confirmation once with the order, and its link shows that order only', async () => {
    const orderId = await paidOrder();
    const mails = await mailsOf(`order-confirmed:${orderId}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe('ada.guest@example.com');

    const link = await guestLink(orderId);
    const order = await json<GuestOrder>(await t.client().get(link), 200);
    expect(order).toMatchObject({ id: orderId, status: 'pending', refundRequired: false });
    expect(order.items).toHaveLength(1);
    expect(JSON.stringify(order)).not.toContain('Main St');

    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const other = await paidOrder('someone.else@example.com');
    await json(await t.client().get(`/api/guest-orders/${other}?token=${token}`), 404);
    await json(await t.client().get(`/api/guest-orders/${orderId}?token=${token.slice(0, -2)}xx`), 404);
    await json(await t.client().get(`/api/guest-orders/${orderId}`), 404);
    const expired = signLink(t.deps.config.authSecret, 'guest-order', orderId, new Date(Date.now() - 1000));
    await json(await t.client().get(`/api/guest-orders/${orderId}?token=${expired}`), 404);
    await json(await t.client().get(`/api/guest-orders/not-a-uuid?token=${token}`), 404);
  });

  it('an account made at checkout gets a confirmation link that confirms it', async () => {
    const email = `checkout-${Date.now().toString(36)}@example.com`;
    await paidOrder(email, { password: 'meadow-lantern-77', confirmPassword: 'meadow-lantern-77' });
    const [mail] = (await mailsOf('verify-email:')).filter((m) => m.to_address === email);
    expect(mail).toBeDefined();
    const token = decodeURIComponent(/verify-email\?token=(\S+)/.exec(mail!.text_body)![1]!);
    const client = t.client();
    // The link's page asks for the password step: the shopper gives the account's password.
    await json(
      await client.post('/api/auth/verify-email', { token, mode: 'current', password: 'meadow-lantern-77' }),
      200,
    );
    expect(await json(await client.get('/api/auth/email-verification'), 200)).toEqual({
      email,
      verified: true,
    });
  });

  it('sends a shipping mail when the admin ships the order or adds tracking, once per change', async () => {
    const orderId = await paidOrder();
    const { admin } = await signInClients(t);
    await json(await admin.patch(`/api/admin/orders/${orderId}`, { status: 'shipped' }), 200);
    await json(await admin.patch(`/api/admin/orders/${orderId}`, { status: 'shipped' }), 200);
    await json(
      await admin.patch(`/api/admin/orders/${orderId}`, { trackingNumber: '9400 1118 9922 3817 0000 42' }),
      200,
    );
    const updates = await mailsOf(`order-update:${orderId}`);
    expect(updates.map((m) => m.subject).sort()).toEqual([
      `Order #${orderId.slice(0, 8)} has shipped`,
      `Order #${orderId.slice(0, 8)} has shipped`,
    ]);
    expect(updates.some((m) => m.text_body.includes('Tracking number: 9400111899223817000042'))).toBe(true);
    expect(new Set(updates.map((m) => m.event_key)).size).toBe(2);
  });
});
