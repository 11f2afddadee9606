/**
 * Figures that agree (db/migrations/0023): revenue everywhere — dashboard, daily sales,
 * analytics (payment methods, categories) and customers' total spent — is what the orders charged
 * (an AELO order is 10% off) net of their order-scope refunds that have not failed; a failed order
 * never counts as money. The summaries stay equal to a full recomputation through refunds being
 * recorded, failing, succeeding and deleted, and through an order's deletion. The order views
 * (admin, customer, guest) carry the discount line and the refund figures.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#common/schemas/admin';
import type { AdminAnalytics } from '#common/schemas/admin-analytics';
import type { AdminCustomer } from '#common/schemas/admin-customers';
import type { AdminDashboard } from '#common/schemas/admin-dashboard';
import type { AdminOrder } from '#common/schemas/admin-orders';
import type { CustomerOrdersResponse } from '#common/schemas/customer-orders';
import type { GuestOrder } from '#common/schemas/guest-order';
import type { Db } from '#server/db/client';
import { guestOrderUrl, orderMailFacts } from '#server/modules/orders/guest-order.service';
import { createOrder, type OrderOverrides } from '../factories/order';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients } from './admin-test-kit';

interface RefundRow {
  orderId: string;
  amountCents: number;
  status?: 'pending' | 'sent' | 'succeeded' | 'failed';
  scope?: 'order' | 'transfer';
  method?: 'card' | 'sol' | 'aelo';
}

/** A payment for the order (refunds name one), linked to it. */
async function paymentOf(db: Db, orderId: string, method: 'card' | 'sol' | 'aelo'): Promise<string> {
  const linked = await db
    .selectFrom('orders')
    .select('payment_id')
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (linked?.payment_id) return linked.payment_id;
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const payment = await db
    .insertInto('payments')
    .values({
      reference: `ref-${randomBytes(8).toString('hex')}`,
      method,
      status: 'confirmed',
      subtotal_cents: order.subtotal_cents,
      shipping_cents: order.shipping_cents,
      discount_cents: order.discount_cents,
      amount_cents: order.amount_cents,
      lines: JSON.stringify([]),
      shipping_info: JSON.stringify(order.shipping_info),
      expires_at: new Date(Date.now() + 3_600_000),
      confirmed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('orders').set({ payment_id: payment.id }).where('id', '=', orderId).execute();
  return payment.id;
}

async function insertRefund(db: Db, r: RefundRow): Promise<string> {
  const method = r.method ?? 'card';
  const status = r.status ?? 'pending';
  const row = await db
    .insertInto('refunds')
    .values({
      payment_id: await paymentOf(db, r.orderId, method),
      order_id: r.orderId,
      method,
      kind: 'manual',
      scope: r.scope ?? 'order',
      status,
      amount_cents: r.amountCents,
      crypto_amount: method === 'card' ? null : '110000000',
      crypto_mint: null,
      destination: method === 'card' ? null : 'PayerWallet1111111111111111111111111111111',
      reason: 'Customer asked',
      completed_at: status === 'succeeded' ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every summary row as the triggers left it, then as admin_stats_rebuild() recomputes it. */
async function liveAndRebuilt(db: Db) {
  const read = async () => ({
    daily: (
      await sql`select to_char(day, 'YYYY-MM-DD') as day, payment_method, orders::int,
        amount_cents::text, refunded_cents::text, revenue_cents::text from admin_daily_stats
        where orders <> 0 or amount_cents <> 0 or refunded_cents <> 0 or revenue_cents <> 0 order by 1, 2`.execute(
        db,
      )
    ).rows,
    categories: (
      await sql`select category, quantity::text, revenue_cents::text from admin_category_stats
        where quantity <> 0 or revenue_cents <> 0 order by 1`.execute(db)
    ).rows,
    shares: (
      await sql`select order_id, category, quantity::text, revenue_cents::text
        from admin_order_category_shares order by 1, 2`.execute(db)
    ).rows,
    customers: (
      await sql`select email, orders, spent_cents::text from admin_customer_stats order by 1`.execute(db)
    ).rows,
  });
  const live = await read();
  await sql`select admin_stats_rebuild()`.execute(db);
  return { live, rebuilt: await read() };
}

describe.each(BACKENDS)('figures that agree (%s)', (backend) => {
  let t: TestApp;
  let c: AdminClients;
  let db: Db;
  const ids: Record<string, string> = {};
  const tag = randomBytes(3).toString('hex');
  const email = (name: string) => `${name}-${tag}@example.com`;

  /** Revenue as each screen shows it. */
  async function figures() {
    const dashboard = await json<AdminDashboard>(await c.admin.get('/api/admin/dashboard'), 200);
    const analytics = await json<AdminAnalytics>(await c.admin.get('/api/admin/analytics'), 200);
    const customers = await json<Page<AdminCustomer>>(await c.admin.get('/api/admin/customers'), 200);
    const today = new Date().toISOString().slice(0, 10);
    return {
      dashboard: dashboard.totals.revenueCents.value,
      dashboardToday: dashboard.salesOverview.find((d) => d.date === today)?.revenueCents,
      analyticsToday: analytics.dailySales.find((d) => d.date === today)?.revenueCents,
      paymentMethods: analytics.paymentMethods.reduce((sum, m) => sum + m.amountCents, 0),
      categories: analytics.categories.reduce((sum, x) => sum + x.revenueCents, 0),
      customers: customers.items.reduce((sum, x) => sum + x.totalSpentCents, 0),
      byMethod: Object.fromEntries(analytics.paymentMethods.map((m) => [m.method, m.amountCents])),
      byCategory: Object.fromEntries(analytics.categories.map((x) => [x.category, x.revenueCents])),
      byCustomer: Object.fromEntries(customers.items.map((x) => [x.email, x.totalSpentCents])),
    };
  }

  /** Every screen shows `cents` as the revenue (every order here is today's). */
  async function expectRevenue(cents: number) {
    const f = await figures();
    expect({
      dashboard: f.dashboard,
      dashboardToday: f.dashboardToday,
      analyticsToday: f.analyticsToday,
      paymentMethods: f.paymentMethods,
      categories: f.categories,
      customers: f.customers,
    }).toEqual({
      dashboard: cents,
      dashboardToday: cents,
      analyticsToday: cents,
      paymentMethods: cents,
      categories: cents,
      customers: cents,
    });
    const { live, rebuilt } = await liveAndRebuilt(db);
    expect(live).toEqual(rebuilt);
    return f;
  }

  const order = (overrides: OrderOverrides) => createOrder(db, overrides).then((o) => o.id);

  beforeAll(async () => {
    t = await startTestApp({ backend });
    c = await signInClients(t);
    db = t.deps.database.db;
    // Three orders whose items list at 70.00 + 72.00 + 68.00 = 210.00; the AELO one is 10% off
    // (61.20), so they charged 203.20.
    ids.card = await order({
      email: email('card'),
      items: [{ category: 'womens-leggings', priceCents: 7000 }],
    });
    ids.sol = await order({
      email: email('sol'),
      paymentMethod: 'sol',
      items: [{ category: 'mens-tops', priceCents: 7200 }],
    });
    ids.aelo = await order({
      email: email('aelo'),
      paymentMethod: 'aelo',
      userId: c.customerId,
      items: [
        { category: 'womens-leggings', priceCents: 3400 },
        { category: 'womens-bras', priceCents: 1700, quantity: 2 },
      ],
      discountCents: 680,
    });
    // A failed order (paid, its stock lost): an order, never money.
    ids.failed = await order({
      email: email('failed'),
      status: 'failed',
      items: [{ category: 'mens-jackets', priceCents: 9900 }],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts what the orders charged, not their items, on every screen', async () => {
    const f = await expectRevenue(7000 + 7200 + 6120);
    expect(f.byMethod).toEqual({ card: 7000, sol: 7200, aelo: 6120 });
    // The AELO order's 61.20 shared by list value: leggings 34.00 and bras 34.00 of 68.00 -> 30.60 each.
    expect(f.byCategory).toEqual({ 'womens-leggings': 7000 + 3060, 'mens-tops': 7200, 'womens-bras': 3060 });
    expect(f.byCategory['mens-jackets']).toBeUndefined();
    expect(f.byCustomer[email('aelo')]).toBe(6120);
    expect(f.byCustomer[email('failed')]).toBe(0);
    const dashboard = await json<AdminDashboard>(await c.admin.get('/api/admin/dashboard'), 200);
    expect(dashboard.totals.orders.value).toBe(4);
  });

  it('takes a refund out from when it is recorded, puts it back if it fails, ignores transfer refunds', async () => {
    const base = 7000 + 7200 + 6120;
    const pending = await insertRefund(db, { orderId: ids.card!, amountCents: 1500 });
    let f = await expectRevenue(base - 1500);
    expect(f.byMethod.card).toBe(5500);
    expect(f.byCustomer[email('card')]).toBe(5500);
    expect(f.byCategory['womens-leggings']).toBe(5500 + 3060);

    // pending -> sent -> succeeded moves nothing.
    await db.updateTable('refunds').set({ status: 'sent' }).where('id', '=', pending).execute();
    await db
      .updateTable('refunds')
      .set({ status: 'succeeded', completed_at: new Date() })
      .where('id', '=', pending)
      .execute();
    await expectRevenue(base - 1500);

    // A partial refund of the AELO order lowers each of its lines alike (61.20 - 10.01 = 51.19).
    const aeloRefund = await insertRefund(db, { orderId: ids.aelo!, amountCents: 1001, method: 'aelo' });
    f = await expectRevenue(base - 1500 - 1001);
    expect(f.byCategory['womens-bras']! + f.byCategory['womens-leggings']! - 5500).toBe(5119);
    expect([f.byCategory['womens-bras'], f.byCategory['womens-leggings']! - 5500].sort()).toEqual([
      2559, 2560,
    ]);

    // A refund that fails gives the money back to the figures.
    await db.updateTable('refunds').set({ status: 'failed' }).where('id', '=', aeloRefund).execute();
    await expectRevenue(base - 1500);

    // Money that never paid an order (transfer scope), and a refund of the failed order: never revenue.
    await insertRefund(db, { orderId: ids.sol!, amountCents: 700, scope: 'transfer', method: 'sol' });
    await insertRefund(db, { orderId: ids.failed!, amountCents: 9900 });
    await expectRevenue(base - 1500);

    // A failed order made good counts with its own refunds: 99.00 - 99.00.
    expect((await c.admin.patch(`/api/admin/orders/${ids.failed}`, { status: 'completed' })).status).toBe(
      200,
    );
    await expectRevenue(base - 1500);
    // The card order failing takes out its money, net: 70.00 - 15.00.
    expect((await c.admin.patch(`/api/admin/orders/${ids.card}`, { status: 'failed' })).status).toBe(200);
    await expectRevenue(base - 7000);
    expect((await c.admin.patch(`/api/admin/orders/${ids.card}`, { status: 'completed' })).status).toBe(200);
    await expectRevenue(base - 1500);

    // A refund deleted (its payment gone) is out of the figures too.
    await db.deleteFrom('refunds').where('id', '=', pending).execute();
    await expectRevenue(base);
  });

  it('keeps the figures exact when an order with refunds is deleted', async () => {
    const extra = await order({
      email: email('card'),
      items: [
        { category: 'mens-tops', priceCents: 2000 },
        { category: 'womens-bras', priceCents: 1000 },
      ],
    });
    await insertRefund(db, { orderId: extra, amountCents: 500 });
    await expectRevenue(7000 + 7200 + 6120 + 3000 - 500);
    expect((await c.admin.delete(`/api/admin/orders/${extra}`)).status).toBe(200);
    await expectRevenue(7000 + 7200 + 6120);
  });

  it('gives the order views the discount line and the refund figures', async () => {
    const refundId = await insertRefund(db, { orderId: ids.aelo!, amountCents: 2000, method: 'aelo' });
    await insertRefund(db, { orderId: ids.aelo!, amountCents: 300, method: 'aelo', status: 'failed' });

    const admin = await json<AdminOrder>(await c.admin.get(`/api/admin/orders/${ids.aelo}`), 200);
    expect(admin).toMatchObject({
      paymentMethod: 'aelo',
      subtotalCents: 6800,
      shippingCents: 0,
      discountCents: 680,
      amountCents: 6120,
      refundedCents: 2000,
      refundableCents: 4120,
    });
    expect(admin.refunds.map((r) => [r.amountCents, r.status, r.scope, r.method])).toEqual([
      [1001, 'failed', 'order', 'aelo'],
      [2000, 'pending', 'order', 'aelo'],
      [300, 'failed', 'order', 'aelo'],
    ]);
    expect(admin.refunds[1]).toMatchObject({ id: refundId, reason: 'Customer asked', cryptoSymbol: 'AELO' });

    const list = await json<Page<AdminOrder>>(await c.admin.get(`/api/admin/orders?search=${ids.aelo}`), 200);
    expect(list.items[0]).toMatchObject({ id: ids.aelo, refundedCents: 2000, refundableCents: 4120 });
    const card = await json<AdminOrder>(await c.admin.get(`/api/admin/orders/${ids.card}`), 200);
    expect(card).toMatchObject({ discountCents: 0, refunds: [], refundedCents: 0, refundableCents: 7000 });

    const links = { publicUrl: t.deps.config.publicUrl, secret: t.deps.config.authSecret };
    const token = new URL(guestOrderUrl(links, ids.aelo!)).searchParams.get('token')!;
    const guest = await json<GuestOrder>(
      await t.client().get(`/api/guest-orders/${ids.aelo}?token=${encodeURIComponent(token)}`),
      200,
    );
    expect(guest).toMatchObject({
      subtotalCents: 6800,
      shippingCents: 0,
      discountCents: 680,
      totalCents: 6120,
      refundedCents: 2000,
    });
    expect(guest.refunds.map((r) => r.id)).toEqual(admin.refunds.map((r) => r.id));

    const mine = await json<CustomerOrdersResponse>(await c.customer.get('/api/orders'), 200);
    expect(mine.orders.find((o) => o.id === ids.aelo)).toMatchObject({
      subtotalCents: 6800,
      shippingCents: 0,
      discountCents: 680,
      totalCents: 6120,
      refundedCents: 2000,
    });
    expect(mine.orders.find((o) => o.id === ids.aelo)!.refunds).toHaveLength(3);

    // The order mails name the discount with the total.
    expect((await orderMailFacts(db, links, ids.aelo!))?.totalText).toBe(
      '$61.20 after the 10% AELO discount of $6.80',
    );
    expect((await orderMailFacts(db, links, ids.card!))?.totalText).toBe('$70.00');

    // The revenue is the same 2000 lower everywhere (the failed 3.00 is not).
    await expectRevenue(7000 + 7200 + 6120 - 2000);
  });
});
