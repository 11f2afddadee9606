/**
 * /api/tickets: a signed-in customer's support tickets. Only their own, whatever the input; the
 * spec's limits and messages; text stored as typed; a new ticket reaches the admin's Messages list
 * and its live topic at once, and the admin's triage reaches the customer's topic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminMessagePage } from '#common/schemas/admin-messages';
import { TICKET_TEXTS, type Ticket, type TicketList } from '#common/schemas/tickets';
import type { LiveEvent } from '#common/schemas/events';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

describe.each(BACKENDS)('support tickets on %s', (backend) => {
  let t: TestApp;
  let a: AdminClients;
  let b: AdminClients;
  beforeAll(async () => {
    t = await startTestApp({ backend });
    a = await signInClients(t);
    b = await signInClients(t);
  }, 60_000);
  afterAll(() => t.close());

  it('creates a ticket, trimmed and stored as typed, unread and normal, and lists only the owner its tickets', async () => {
    const subject = '  <b>Where is</b> my order?  ';
    const content = "  It's been 5 days <script>alert(1)</script> & still nothing.\n\nThanks ";
    const created = await json<Ticket>(
      await a.customer.post('/api/tickets', { category: 'order', subject, content }),
      201,
    );
    expect(created).toMatchObject({
      subject: subject.trim(),
      content: content.trim(),
      category: 'order',
      status: 'unread',
      priority: 'normal',
    });
    const defaulted = await json<Ticket>(
      await a.customer.post('/api/tickets', { subject: 'Sizing', content: 'Runs small?' }),
      201,
    );
    expect(defaulted.category).toBe('general');
    await json(await b.customer.post('/api/tickets', { subject: 'B only', content: 'Mine' }), 201);

    const mine = await json<TicketList>(await a.customer.get('/api/tickets'), 200);
    expect(mine.tickets.map((x) => x.id)).toEqual([defaulted.id, created.id]);
    const theirs = await json<TicketList>(await b.customer.get('/api/tickets'), 200);
    expect(theirs.tickets.map((x) => x.subject)).toEqual(['B only']);
    // A user id in the query or body never widens the list or the owner.
    const widened = await json<TicketList>(await b.customer.get(`/api/tickets?user_id=${a.customerId}`), 200);
    expect(widened.tickets.map((x) => x.subject)).toEqual(['B only']);
    const forged = await json<Ticket>(
      await b.customer.post('/api/tickets', { subject: 'Forged', content: 'x', user_id: a.customerId }),
      201,
    );
    expect(
      (await json<TicketList>(await a.customer.get('/api/tickets'), 200)).tickets.map((x) => x.id),
    ).not.toContain(forged.id);
  });

  it('refuses signed-out callers and bad input with the spec messages', async () => {
    await json(await a.anonymous.get('/api/tickets'), 401);
    await json(await a.anonymous.post('/api/tickets', { subject: 's', content: 'c' }), 401);
    const bad = async (body: unknown, field: string, message: string) => {
      const err = await json<ErrorJson>(await a.customer.post('/api/tickets', body), 400);
      expect(err.error.fields?.[field]).toBe(message);
    };
    await bad({ subject: '   ', content: 'text' }, 'subject', TICKET_TEXTS.required);
    await bad({ subject: 'Hello', content: '' }, 'content', TICKET_TEXTS.required);
    await bad(
      { subject: 'x'.repeat(101), content: 'text' },
      'subject',
      'Subject must be at most 100 characters',
    );
    await bad(
      { subject: 'ok', content: 'x'.repeat(2001) },
      'content',
      'Description must be at most 2000 characters',
    );
    await bad({ subject: 'ok', content: 'text', category: 'refund' }, 'category', 'Please choose a category');
    // The limits are inclusive, counted after trimming.
    await json(
      await a.customer.post('/api/tickets', { subject: ` ${'s'.repeat(100)} `, content: 'c'.repeat(2000) }),
      201,
    );
  });

  it("reaches the admin's Messages list and live topic at once, and the admin's triage reaches the customer", async () => {
    const adminEvents: LiveEvent[] = [];
    const customerEvents: LiveEvent[] = [];
    const stopAdmin = t.deps.events.subscribe(['admin:messages'], (e) => adminEvents.push(e));
    const stopCustomer = t.deps.events.subscribe([`tickets:${a.customerId}`], (e) => customerEvents.push(e));
    try {
      const ticket = await json<Ticket>(
        await a.customer.post('/api/tickets', {
          category: 'billing',
          subject: 'Double charge',
          content: 'Charged twice',
        }),
        201,
      );
      const page = await json<AdminMessagePage>(
        await a.admin.get('/api/admin/messages?search=Double%20charge'),
        200,
      );
      expect(page.items.map((m) => m.id)).toContain(ticket.id);
      await expect.poll(() => adminEvents.some((e) => e.type === 'message.created')).toBe(true);

      await json(await a.admin.patch(`/api/admin/messages/${ticket.id}/status`, { status: 'read' }), 200);
      await expect.poll(() => customerEvents.some((e) => e.type === 'ticket.updated')).toBe(true);
      const mine = await json<TicketList>(await a.customer.get('/api/tickets'), 200);
      expect(mine.tickets.find((x) => x.id === ticket.id)?.status).toBe('read');
    } finally {
      stopAdmin();
      stopCustomer();
    }
  });

  it('limits how many tickets one customer opens in an hour', async () => {
    const c = await signInClients(t);
    for (let i = 0; i < 10; i++) {
      await json(await c.customer.post('/api/tickets', { subject: `Ticket ${i}`, content: 'Hello' }), 201);
    }
    const res = await c.customer.post('/api/tickets', { subject: 'One more', content: 'Hello' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
  });
});
