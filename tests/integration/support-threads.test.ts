/**
 * Support threads (issue 40) through the real server: the admin answers a ticket from Messages
 * (stored, the ticket read, response_time set, the customer mailed with a link to
 * /profile/messages, audited, announced live); the customer reads the thread under the ticket and
 * follows up (unread again); nobody reads or writes another's thread; archived is final and sets
 * resolution_time; the dashboard averages the times, with nothing to average at first.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminDashboard } from '#common/schemas/admin-dashboard';
import type { LiveEvent } from '#common/schemas/events';
import { SUPPORT_TEXTS, type AdminMessageThread, type MessageReply } from '#common/schemas/support-threads';
import type { Ticket, TicketList } from '#common/schemas/tickets';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

describe.each(BACKENDS)('support threads on %s', (backend) => {
  let t: TestApp;
  let a: AdminClients;
  let b: AdminClients;
  beforeAll(async () => {
    t = await startTestApp({ backend });
    a = await signInClients(t);
    b = await signInClients(t);
  }, 60_000);
  afterAll(() => t.close());

  const newTicket = (subject: string) =>
    a.customer
      .post('/api/tickets', { category: 'order', subject, content: 'Where is my parcel?' })
      .then((res) => json<Ticket>(res, 201));

  it('shows no support times on the dashboard before any ticket is answered', async () => {
    const dashboard = await json<AdminDashboard>(await a.admin.get('/api/admin/dashboard'), 200);
    expect(dashboard.support).toEqual({
      answered: 0,
      averageResponseSeconds: null,
      resolved: 0,
      averageResolutionSeconds: null,
    });
  });

  it('an admin reply is stored, marks the ticket read, records response_time, mails the customer and is audited', async () => {
    const ticket = await newTicket('Parcel late');
    const customerEvents: LiveEvent[] = [];
    const stop = t.deps.events.subscribe([`tickets:${a.customerId}`], (e) => customerEvents.push(e));
    try {
      const thread = await json<AdminMessageThread>(
        await a.admin.post(`/api/admin/messages/${ticket.id}/replies`, {
          body: '  It left our studio today.  ',
        }),
        201,
      );
      expect(thread.message).toMatchObject({ id: ticket.id, status: 'read', replyCount: 1 });
      expect(thread.replies).toEqual([
        expect.objectContaining({ authorKind: 'admin', body: 'It left our studio today.' }),
      ]);
      await expect.poll(() => customerEvents.some((e) => e.type === 'ticket.updated')).toBe(true);
    } finally {
      stop();
    }
    const db = t.deps.database.db;
    const row = await db
      .selectFrom('messages')
      .select(['response_time', 'resolution_time', 'status'])
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(row.response_time).toBeGreaterThanOrEqual(0);
    expect(row.resolution_time).toBeNull();

    const mailRow = await db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('event_key', 'like', 'support-reply:%')
      .where('subject', '=', 'Re: Parcel late')
      .executeTakeFirstOrThrow();
    expect(mailRow.to_address).toMatch(/^customer-.*@example\.com$/);
    expect(mailRow.text_body).toContain('It left our studio today.');
    expect(mailRow.text_body).toContain('http://localhost:3000/profile/messages');

    const audit = await db
      .selectFrom('admin_audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'reply_message')
      .execute();
    expect(audit.some((e) => (e.details as { messageId?: string }).messageId === ticket.id)).toBe(true);

    // The customer reads it under the ticket.
    const mine = await json<TicketList>(await a.customer.get('/api/tickets'), 200);
    const listed = mine.tickets.find((x) => x.id === ticket.id);
    expect(listed?.status).toBe('read');
    expect(listed?.replies.map((r) => [r.authorKind, r.body])).toEqual([
      ['admin', 'It left our studio today.'],
    ]);

    // A second reply keeps the first response time.
    const first = row.response_time;
    await json(
      await a.admin.post(`/api/admin/messages/${ticket.id}/replies`, { body: 'Tracking soon.' }),
      201,
    );
    const again = await db
      .selectFrom('messages')
      .select('response_time')
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(again.response_time).toBe(first);
  });

  it('a customer follow-up joins the thread and marks the ticket unread for the admin', async () => {
    const ticket = await newTicket('Wrong size');
    await json(await a.admin.post(`/api/admin/messages/${ticket.id}/replies`, { body: 'Which size?' }), 201);
    const adminEvents: LiveEvent[] = [];
    const stop = t.deps.events.subscribe(['admin:messages'], (e) => adminEvents.push(e));
    try {
      const reply = await json<MessageReply>(
        await a.customer.post(`/api/tickets/${ticket.id}/replies`, { body: 'I got an M, ordered S.' }),
        201,
      );
      expect(reply.authorKind).toBe('customer');
      await expect.poll(() => adminEvents.some((e) => e.type === 'message.updated')).toBe(true);
    } finally {
      stop();
    }
    const thread = await json<AdminMessageThread>(
      await a.admin.get(`/api/admin/messages/${ticket.id}/thread`),
      200,
    );
    expect(thread.message.status).toBe('unread');
    expect(thread.replies.map((r) => r.authorKind)).toEqual(['admin', 'customer']);
    // The follow-up is the customer's own: no mail to them for it.
    const mails = await t.deps.database.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('subject', '=', 'Re: Wrong size')
      .execute();
    expect(mails).toHaveLength(1);
  });

  it("keeps threads to their owner: another customer's ticket is a 404, anonymous a 401, blank or long replies a 400", async () => {
    const ticket = await newTicket('Private');
    const other = await json<ErrorJson>(
      await b.customer.post(`/api/tickets/${ticket.id}/replies`, { body: 'Let me in' }),
      404,
    );
    expect(other.error.message).toBe(SUPPORT_TEXTS.notFound);
    await json(await b.customer.post('/api/tickets/not-a-uuid/replies', { body: 'x' }), 404);
    await json(await a.anonymous.post(`/api/tickets/${ticket.id}/replies`, { body: 'x' }), 401);
    const theirs = await json<TicketList>(await b.customer.get('/api/tickets'), 200);
    expect(theirs.tickets.map((x) => x.id)).not.toContain(ticket.id);
    const blank = await json<ErrorJson>(
      await a.customer.post(`/api/tickets/${ticket.id}/replies`, { body: '   ' }),
      400,
    );
    expect(blank.error.fields?.body).toBe(SUPPORT_TEXTS.replyRequired);
    await json(await a.customer.post(`/api/tickets/${ticket.id}/replies`, { body: 'x'.repeat(2001) }), 400);
    await json(await a.customer.post(`/api/tickets/${ticket.id}/replies`, { body: 'y'.repeat(2000) }), 201);
    // The admin routes are the admin's only.
    await json(await a.customer.get(`/api/admin/messages/${ticket.id}/thread`), 403);
    await json(await a.customer.post(`/api/admin/messages/${ticket.id}/replies`, { body: 'x' }), 403);
    await json(await a.admin.get('/api/admin/messages/00000000-0000-4000-8000-000000000000/thread'), 404);
    // Nothing was written by the refused requests.
    const count = await t.deps.database.db
      .selectFrom('message_replies')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('message_id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('archiving resolves: resolution_time is set, and neither side writes under an archived ticket', async () => {
    const ticket = await newTicket('Done');
    // Make the ticket an hour old, so the times have something to measure.
    await sql`update messages set created_at = now() - interval '1 hour' where id = ${ticket.id}`.execute(
      t.deps.database.db,
    );
    await json(await a.admin.post(`/api/admin/messages/${ticket.id}/replies`, { body: 'Refunded.' }), 201);
    await json(await a.admin.patch(`/api/admin/messages/${ticket.id}/status`, { status: 'archived' }), 200);
    const row = await t.deps.database.db
      .selectFrom('messages')
      .select(['response_time', 'resolution_time'])
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(row.response_time).toBeGreaterThanOrEqual(3590);
    expect(row.resolution_time).toBeGreaterThanOrEqual(row.response_time ?? 0);
    const closed = await json<ErrorJson>(
      await a.customer.post(`/api/tickets/${ticket.id}/replies`, { body: 'One more' }),
      409,
    );
    expect(closed.error.message).toBe(SUPPORT_TEXTS.archived);
    await json(await a.admin.post(`/api/admin/messages/${ticket.id}/replies`, { body: 'x' }), 409);

    const dashboard = await json<AdminDashboard>(await a.admin.get('/api/admin/dashboard'), 200);
    expect(dashboard.support.answered).toBeGreaterThanOrEqual(3);
    expect(dashboard.support.resolved).toBe(1);
    expect(dashboard.support.averageResolutionSeconds).toBe(row.resolution_time);
    expect(dashboard.support.averageResponseSeconds).toBeGreaterThan(0);
  });
});
