/**
 * The contact form's API (issue 40): a guest's message lands in the admin's Messages inbox with the
 * guest's email; an order number links the order only when it matches an order AND that order's
 * shipping email; the admin's reply goes to the guest by mail and shows on the order's guest page;
 * the shared schema refuses bad input; a client is limited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminMessagePage } from '#common/schemas/admin-messages';
import { CONTACT_TEXTS, type ContactResult } from '#common/schemas/contact';
import type { GuestOrder } from '#common/schemas/guest-order';
import { guestOrderUrl } from '#server/modules/orders/guest-order.service';
import { createOrder } from '../factories/order';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

describe.each(BACKENDS)('contact form on %s', (backend) => {
  let t: TestApp;
  let a: AdminClients;
  beforeAll(async () => {
    t = await startTestApp({ backend });
    a = await signInClients(t);
  }, 60_000);
  afterAll(() => t.close());

  const orderToken = (orderId: string) =>
    new URL(
      guestOrderUrl({ publicUrl: TEST_ORIGIN, secret: t.deps.config.authSecret }, orderId),
    ).searchParams.get('token') ?? '';

  it("lands a guest's message in the admin's inbox with the guest's email, not linked to any order", async () => {
    const sent = await json<ContactResult>(
      await t.client().post('/api/contact', {
        name: '  Robin Hale ',
        email: 'robin.hale@example.com',
        orderNumber: '',
        message: 'Do you ship to Alaska?',
      }),
      201,
    );
    const page = await json<AdminMessagePage>(
      await a.admin.get('/api/admin/messages?search=robin.hale'),
      200,
    );
    const message = page.items.find((m) => m.id === sent.id);
    expect(message).toMatchObject({
      userId: null,
      senderEmail: 'robin.hale@example.com',
      guestName: 'Robin Hale',
      content: 'Do you ship to Alaska?',
      status: 'unread',
      orderReference: null,
      orderLinked: false,
    });

    // The admin's reply goes to the guest by mail, with the answer and the contact form to write back.
    await json(
      await a.admin.post(`/api/admin/messages/${sent.id}/replies`, { body: 'Yes, in 5 days.' }),
      201,
    );
    const mail = await t.deps.database.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'text_body'])
      .where('to_address', '=', 'robin.hale@example.com')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('Yes, in 5 days.');
    expect(mail.text_body).toContain(`${TEST_ORIGIN}/contact`);
  });

  it("links the order named only when its number and shipping email match, and shows the answers on that order's page", async () => {
    const db = t.deps.database.db;
    const order = await createOrder(db, { email: 'Sam.Guest@example.com' });
    const number = `#${order.id.slice(0, 8).toUpperCase()}`;

    // Right number, another email: stored as typed, no link.
    const wrongEmail = await json<ContactResult>(
      await t.client().post('/api/contact', {
        name: 'Mallory',
        email: 'mallory@example.com',
        orderNumber: number,
        message: 'Change the address of this order',
      }),
      201,
    );
    // A number that is no order's: no link.
    const noOrder = await json<ContactResult>(
      await t.client().post('/api/contact', {
        name: 'Sam',
        email: 'sam.guest@example.com',
        orderNumber: 'ZZZZ0000',
        message: 'Hello?',
      }),
      201,
    );
    const linked = await json<ContactResult>(
      await t.client().post('/api/contact', {
        name: 'Sam',
        email: 'sam.guest@example.com',
        orderNumber: number,
        message: 'The leggings arrived torn.',
      }),
      201,
    );
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'order_id', 'order_reference', 'category'])
      .where('id', 'in', [wrongEmail.id, noOrder.id, linked.id])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(wrongEmail.id)).toMatchObject({ order_id: null, order_reference: number });
    expect(byId.get(noOrder.id)).toMatchObject({ order_id: null, order_reference: 'ZZZZ0000' });
    expect(byId.get(linked.id)).toMatchObject({ order_id: order.id, category: 'order' });

    await json(
      await a.admin.post(`/api/admin/messages/${linked.id}/replies`, { body: 'A new pair is on its way.' }),
      201,
    );
    const view = await json<GuestOrder>(
      await t.client().get(`/api/guest-orders/${order.id}?token=${orderToken(order.id)}`),
      200,
    );
    // Only the message that matched shows on the order's page, with the answer under it.
    expect(view.messages.map((m) => m.content)).toEqual(['The leggings arrived torn.']);
    expect(view.messages[0]?.replies.map((r) => [r.authorKind, r.body])).toEqual([
      ['admin', 'A new pair is on its way.'],
    ]);
    const mail = await db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', 'sam.guest@example.com')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`${TEST_ORIGIN}/orders/${order.id}?token=`);
  });

  it('refuses bad input with the shared schema', async () => {
    const bad = async (body: unknown, field: string, message: string) => {
      const err = await json<ErrorJson>(await t.client().post('/api/contact', body), 400);
      expect(err.error.fields?.[field]).toBe(message);
    };
    const ok = { name: 'Kim', email: 'kim@example.com', message: 'Hi' };
    await bad({ ...ok, name: '  ' }, 'name', CONTACT_TEXTS.nameRequired);
    await bad({ ...ok, email: 'not-an-email' }, 'email', CONTACT_TEXTS.emailInvalid);
    await bad({ ...ok, message: ' ' }, 'message', CONTACT_TEXTS.messageRequired);
    await bad({ ...ok, message: 'x'.repeat(2001) }, 'message', 'Message must be at most 2000 characters');
    await bad(
      { ...ok, orderNumber: 'x'.repeat(41) },
      'orderNumber',
      'Order number must be at most 40 characters',
    );
    // A user id in the body never makes it someone's ticket.
    const forged = await json<ContactResult>(
      await t.client().post('/api/contact', { ...ok, user_id: a.customerId }),
      201,
    );
    const row = await t.deps.database.db
      .selectFrom('messages')
      .select('user_id')
      .where('id', '=', forged.id)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBeNull();
  });

  it('limits how many messages one client sends, and other clients are not held back', async () => {
    const first = t.client({ ip: '203.0.113.7' });
    const body = { name: 'Flood', email: 'flood@example.com', message: 'Again' };
    for (let i = 0; i < 5; i++) await json(await first.post('/api/contact', body), 201);
    const limited = await json<ErrorJson>(await first.post('/api/contact', body), 429);
    expect(limited.error.message).toBe(CONTACT_TEXTS.rateLimited);
    await json(await t.client({ ip: '203.0.113.8' }).post('/api/contact', body), 201);
  });
});
