import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#common/schemas/admin';
import type { AuditEntry } from '#common/schemas/admin-audit';
import type { AdminOrder } from '#common/schemas/admin-orders';
import type { LiveEvent } from '#common/schemas/events';
import { createOrder, type CreatedOrder } from '../factories/order';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, LIVE_WAIT, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

describe.each(BACKENDS)('admin orders (%s)', (backend) => {
  let t: TestApp;
  let c: AdminClients;
  const events: LiveEvent[] = [];
  let unsubscribe: () => void;
  const orders: Record<string, CreatedOrder> = {};
  const HOUR = 3_600_000;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    c = await signInClients(t);
    const db = t.deps.database.db;
    unsubscribe = t.deps.events.subscribe(['admin:orders', `orders:${c.customerId}`], (e) => events.push(e));
    orders.oldest = await createOrder(db, {
      email: 'Jane.Runner@Example.com',
      firstName: 'Jane',
      lastName: 'Runner',
      createdAt: new Date(Date.now() - 5 * HOUR),
      items: [{ title: 'Velvet Leggings', priceCents: 3000, quantity: 2 }],
    });
    orders.sol = await createOrder(db, {
      email: 'sol.buyer@example.com',
      firstName: 'Sol',
      lastName: 'Buyer',
      paymentMethod: 'sol',
      transactionSignature: '5xY9abcdQm3k8PzR5xY9abcdQm3k8PzR5xY9abcdQm3k8PzR',
      createdAt: new Date(Date.now() - 4 * HOUR),
      userId: c.customerId,
      items: [
        { title: 'Storm Jacket', category: 'mens-jackets', priceCents: 12000 },
        { title: 'Trail Shorts', category: 'mens-shorts', priceCents: 4000 },
      ],
    });
    orders.failed = await createOrder(db, {
      email: 'late.payer@example.com',
      status: 'failed',
      refundRequired: true,
      refundReason: 'Sold out before the payment was confirmed',
      createdAt: new Date(Date.now() - 3 * HOUR),
    });
    orders.shipped = await createOrder(db, {
      email: 'jane.runner@example.com',
      status: 'shipped',
      trackingNumber: '9400111899223',
      createdAt: new Date(Date.now() - 2 * HOUR),
    });
  });
  afterAll(async () => {
    unsubscribe?.();
    await t?.close();
  });

  const list = async (query = '') =>
    json<Page<AdminOrder>>(await c.admin.get(`/api/admin/orders${query}`), 200);

  it('lists orders newest first with shipping info, items, payment and refund flags', async () => {
    const page = await list();
    expect(page.items.map((o) => o.id)).toEqual([
      orders.shipped!.id,
      orders.failed!.id,
      orders.sol!.id,
      orders.oldest!.id,
    ]);
    expect(page).toMatchObject({ page: 1, pageSize: 50, total: 4, hasMore: false });
    const sol = page.items.find((o) => o.id === orders.sol!.id)!;
    expect(sol).toMatchObject({
      shortId: orders.sol!.id.slice(0, 8),
      status: 'pending',
      paymentMethod: 'sol',
      amountCents: 16000,
      transactionSignature: '5xY9abcdQm3k8PzR5xY9abcdQm3k8PzR5xY9abcdQm3k8PzR',
      refundRequired: false,
      shippingInfo: { firstName: 'Sol', lastName: 'Buyer', email: 'sol.buyer@example.com', zipCode: '62701' },
    });
    // The shop's own explorer on the demo ledger, the public one on a real cluster.
    expect(sol.explorerUrl).toMatch(
      t.deps.config.solana.localLedger
        ? /^\/explorer\/tx\/5xY9abcd/
        : /^https:\/\/explorer\.solana\.com\/tx\/5xY9abcd/,
    );
    expect(sol.items.map((i) => [i.title, i.category, i.priceCents, i.quantity])).toEqual([
      ['Storm Jacket', 'mens-jackets', 12000, 1],
      ['Trail Shorts', 'mens-shorts', 4000, 1],
    ]);
    expect(sol.items[0]!.imageUrl).toMatch(/^\/uploads\/products\//);
    const failed = page.items.find((o) => o.id === orders.failed!.id)!;
    expect(failed).toMatchObject({
      status: 'failed',
      refundRequired: true,
      refundReason: 'Sold out before the payment was confirmed',
      explorerUrl: null,
    });
  });

  it('searches by id prefix, email, name and item title; filters by status; pages', async () => {
    const ids = async (query: string) => (await list(query)).items.map((o) => o.id);
    expect(await ids(`?search=${orders.sol!.id.slice(0, 6)}`)).toContain(orders.sol!.id);
    expect(await ids('?search=JANE.RUNNER')).toEqual([orders.shipped!.id, orders.oldest!.id]);
    expect(await ids('?search=sol%20buyer')).toEqual([orders.sol!.id]);
    expect(await ids('?search=storm')).toEqual([orders.sol!.id]);
    expect(await ids('?search=100%25')).toEqual([]); // a literal %, not a wildcard
    expect(await ids('?status=failed')).toEqual([orders.failed!.id]);
    expect((await list('?status=failed')).total).toBe(1);
    expect((await list('?status=pending')).total).toBe(2);
    // A whole address matches that address exactly; a fragment matches as a substring.
    expect(await ids('?search=Jane.Runner%40example.com')).toEqual([orders.shipped!.id, orders.oldest!.id]);
    expect(await ids('?search=ane.runner%40exam')).toEqual([orders.shipped!.id, orders.oldest!.id]);
    expect(await ids('?search=runner%40example.co')).toEqual([orders.shipped!.id, orders.oldest!.id]);
    expect(await ids('?status=shipped&search=jane')).toEqual([orders.shipped!.id]);
    const searched = await list('?search=jane');
    expect(searched.total).toBeNull();

    const first = await list('?pageSize=3');
    expect(first).toMatchObject({ total: 4, hasMore: true });
    const second = await list('?pageSize=3&page=2');
    expect(second.items.map((o) => o.id)).toEqual([orders.oldest!.id]);
    expect(second.hasMore).toBe(false);

    for (const [query, field] of [
      ['?status=lost', 'status'],
      ['?page=abc', 'page'],
      ['?pageSize=0', 'pageSize'],
      [`?search=${'x'.repeat(201)}`, 'search'],
    ] as const) {
      const body = await json<ErrorJson>(await c.admin.get(`/api/admin/orders${query}`), 400);
      expect(body.error.fields?.[field], query).toEqual(expect.any(String));
    }
  });

  it('updates status and tracking number (only non-empty values), audits and announces it', async () => {
    const id = orders.sol!.id;
    const before = (await json<AdminOrder>(await c.admin.get(`/api/admin/orders/${id}`), 200)).updatedAt;
    const updated = await json<AdminOrder>(
      await c.admin.patch(`/api/admin/orders/${id}`, {
        status: 'shipped',
        trackingNumber: ' 9400 1118 9922 3817 0000 42 ',
      }),
      200,
    );
    expect(updated).toMatchObject({ status: 'shipped', trackingNumber: '9400111899223817000042' });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(before));

    const trackingOnly = await json<AdminOrder>(
      await c.admin.patch(`/api/admin/orders/${id}`, { status: '', trackingNumber: 'EC123456789US' }),
      200,
    );
    expect(trackingOnly).toMatchObject({ status: 'shipped', trackingNumber: 'EC123456789US' });
    const statusOnly = await json<AdminOrder>(
      await c.admin.patch(`/api/admin/orders/${id}`, { status: 'completed', trackingNumber: '' }),
      200,
    );
    expect(statusOnly).toMatchObject({ status: 'completed', trackingNumber: 'EC123456789US' });

    const nothing = await json<ErrorJson>(
      await c.admin.patch(`/api/admin/orders/${id}`, { status: '', trackingNumber: '  ' }),
      400,
    );
    expect(nothing.error.message).toContain('Nothing to update');
    const bad = await json<ErrorJson>(
      await c.admin.patch(`/api/admin/orders/${id}`, { status: 'lost' }),
      400,
    );
    expect(bad.error.fields?.status).toEqual(expect.any(String));
    await json(
      await c.admin.patch('/api/admin/orders/123e4567-e89b-42d3-a456-426614174000', { status: 'shipped' }),
      404,
    );

    const audit = await json<Page<AuditEntry>>(
      await c.admin.get('/api/admin/audit?action=update_order'),
      200,
    );
    expect(audit.items).toHaveLength(3);
    expect(audit.items[2]).toMatchObject({
      actorId: c.adminId,
      details: {
        orderId: id,
        changes: {
          status: { from: 'pending', to: 'shipped' },
          trackingNumber: { from: null, to: '9400111899223817000042' },
        },
        admin: { id: c.adminId, email: c.adminEmail },
      },
    });
    await expect
      .poll(() => events, LIVE_WAIT)
      .toContainEqual(expect.objectContaining({ topic: `orders:${c.customerId}`, type: 'order.updated' }));
    expect(events.some((e) => e.topic === 'admin:orders' && e.type === 'order.updated')).toBe(true);
  });

  it('deletes an order with its items, audits and announces it', async () => {
    const id = orders.oldest!.id;
    expect(await json(await c.admin.delete(`/api/admin/orders/${id}`), 200)).toEqual({ ok: true, id });
    await json(await c.admin.get(`/api/admin/orders/${id}`), 404);
    await json(await c.admin.delete(`/api/admin/orders/${id}`), 404);
    const items = await t.deps.database.db
      .selectFrom('order_items')
      .select('id')
      .where('order_id', '=', id)
      .execute();
    expect(items).toEqual([]);
    const audit = await json<Page<AuditEntry>>(
      await c.admin.get('/api/admin/audit?action=delete_order'),
      200,
    );
    expect(audit.items[0]).toMatchObject({
      actorId: c.adminId,
      details: {
        orderId: id,
        email: 'jane.runner@example.com',
        amountCents: 6000,
        admin: { email: c.adminEmail },
      },
    });
    await expect
      .poll(() => events, LIVE_WAIT)
      .toContainEqual(
        expect.objectContaining({
          topic: 'admin:orders',
          type: 'changed',
          data: expect.objectContaining({ id }),
        }),
      );
  });
});
