/**
 * Tracking numbers an owner can trust: the admin's tracking number is checked against USPS's
 * formats (spaces allowed, stored without them), a number saved again or corrected within the hour
 * sends no second 'has shipped' mail, and the admin's order DTO lists the mails the order has sent.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminOrder } from '#common/schemas/admin-orders';
import { INVALID_TRACKING_NUMBER } from '#common/tracking';
import { checkout } from '../factories/checkout';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients } from './admin-test-kit';

const SHIPPING = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace.guest@example.com',
  phone: '5551234567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

interface ErrorJson {
  error: { code: string; message: string; fields?: Record<string, string> };
}

describe.each(BACKENDS)('tracking numbers and order mails on %s', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: { ...stripeEnv(fake), CHECKOUT_RATE_LIMIT: '1000', CHECKOUT_MAX_OPEN_PER_CLIENT: '1000' },
    });
    fake.setWebhook(async (req) => t.app.request(req));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** A guest's card order, paid (its confirmation mail queued): its id. */
  async function paidOrder(): Promise<string> {
    const body = await checkout(t, {
      paymentMethod: 'card',
      product: { quantity: 3 },
      shippingInfo: SHIPPING,
    });
    await fake.completeSession(fake.lastSession()!.session.id);
    const order = await t.deps.database.db
      .selectFrom('orders')
      .innerJoin('payments', 'payments.id', 'orders.payment_id')
      .select('orders.id')
      .where('payments.reference', '=', body.reference)
      .executeTakeFirstOrThrow();
    return order.id;
  }

  const shippedMails = (orderId: string) =>
    t.deps.database.db
      .selectFrom('mail_outbox')
      .select(['event_key', 'text_body'])
      .where('event_key', 'like', `order-update:${orderId}:%`)
      .where('subject', 'like', '% has shipped')
      .execute();

  it('refuses a number in no USPS format with a message that says what is expected', async () => {
    const orderId = await paidOrder();
    const { admin } = await signInClients(t);
    for (const bad of [
      '1Z999AA10123456784',
      '9400 1111',
      'TRACK-2',
      '940011189922381700004212',
      'EC12345678US',
    ]) {
      const body = await json<ErrorJson>(
        await admin.patch(`/api/admin/orders/${orderId}`, { status: 'shipped', trackingNumber: bad }),
        400,
      );
      expect(body.error.fields?.trackingNumber, bad).toBe(INVALID_TRACKING_NUMBER);
    }
    const stored = await t.deps.database.db
      .selectFrom('orders')
      .select(['status', 'tracking_number'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'pending', tracking_number: null });
    expect(await shippedMails(orderId)).toEqual([]);
  });

  it('accepts the domestic and international formats, spaces dropped', async () => {
    const { admin } = await signInClients(t);
    for (const [input, stored] of [
      ['9400 1000 0000 0000 0000 00', '9400100000000000000000'],
      ['92055901755477000271990', null], // 23 digits: too long
      ['9205 5901 7554 7700 0271 99', '9205590175547700027199'],
      ['93001234567890123456', '93001234567890123456'],
      ['ec 123 456 789 us', 'EC123456789US'],
    ] as const) {
      const orderId = await paidOrder();
      const res = await admin.patch(`/api/admin/orders/${orderId}`, { trackingNumber: input });
      if (stored === null) {
        expect(res.status, input).toBe(400);
        continue;
      }
      const order = await json<AdminOrder>(res, 200);
      expect(order.trackingNumber, input).toBe(stored);
    }
  });

  it('sends one "has shipped" mail within the hour, whether the number is saved again or corrected', async () => {
    const orderId = await paidOrder();
    const { admin } = await signInClients(t);
    const first = '9400 1118 9922 3817 0000 42';
    await json(
      await admin.patch(`/api/admin/orders/${orderId}`, { status: 'shipped', trackingNumber: first }),
      200,
    );
    expect(await shippedMails(orderId)).toHaveLength(1);
    // The same number again (as typed, or without spaces), the status again, then a corrected number.
    await json(await admin.patch(`/api/admin/orders/${orderId}`, { trackingNumber: first }), 200);
    await json(
      await admin.patch(`/api/admin/orders/${orderId}`, {
        status: 'shipped',
        trackingNumber: '9400111899223817000042',
      }),
      200,
    );
    const corrected = await json<AdminOrder>(
      await admin.patch(`/api/admin/orders/${orderId}`, { trackingNumber: '9400111899223817000043' }),
      200,
    );
    expect(corrected.trackingNumber).toBe('9400111899223817000043');
    const mails = await shippedMails(orderId);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('Tracking number: 9400111899223817000042');

    // An hour later, a correction is news again.
    await sql`update mail_outbox set created_at = created_at - interval '61 minutes' where order_id = ${orderId}`.execute(
      t.deps.database.db,
    );
    await json(
      await admin.patch(`/api/admin/orders/${orderId}`, { trackingNumber: '9400111899223817000044' }),
      200,
    );
    expect(await shippedMails(orderId)).toHaveLength(2);
  });

  it('a number added after a "has shipped" mail without one is sent', async () => {
    const orderId = await paidOrder();
    const { admin } = await signInClients(t);
    await json(await admin.patch(`/api/admin/orders/${orderId}`, { status: 'shipped' }), 200);
    await json(await admin.patch(`/api/admin/orders/${orderId}`, { trackingNumber: 'EC123456789US' }), 200);
    await json(await admin.patch(`/api/admin/orders/${orderId}`, { trackingNumber: 'EC123456780US' }), 200);
    const mails = await shippedMails(orderId);
    expect(mails).toHaveLength(2);
    expect(mails.some((m) => m.text_body.includes('Tracking number: EC123456789US'))).toBe(true);
  });

  it("lists the order's mails, with kind and time, in the admin's order and order list", async () => {
    const orderId = await paidOrder();
    const { admin } = await signInClients(t);
    await json(
      await admin.patch(`/api/admin/orders/${orderId}`, {
        status: 'shipped',
        trackingNumber: '9400100000000000000000',
      }),
      200,
    );
    const order = await json<AdminOrder>(await admin.get(`/api/admin/orders/${orderId}`), 200);
    expect(order.mails.map((m) => m.kind)).toEqual(['confirmed', 'shipped']);
    for (const m of order.mails) {
      expect(m.to).toBe(SHIPPING.email);
      expect(m.status).toBe('pending');
      expect(Number.isNaN(Date.parse(m.queuedAt))).toBe(false);
      expect(m.sentAt).toBeNull();
    }
    expect(order.mails[1]!.subject).toBe(`Order #${orderId.slice(0, 8)} has shipped`);

    // Once sent, the time it left.
    // (The test app's mail sender may be sending them too: wait until they have left.)
    while ((await t.deps.mail.sendDue()) > 0);
    await vi.waitFor(async () => {
      const sent = await json<AdminOrder>(await admin.get(`/api/admin/orders/${orderId}`), 200);
      expect(sent.mails.every((m) => m.status === 'sent' && m.sentAt !== null)).toBe(true);
    });
    const page = await json<{ items: AdminOrder[] }>(
      await admin.get(`/api/admin/orders?search=${orderId.slice(0, 8)}`),
      200,
    );
    expect(page.items.find((o) => o.id === orderId)?.mails.map((m) => m.kind)).toEqual([
      'confirmed',
      'shipped',
    ]);
  });
});
