import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#common/schemas/admin';
import type { AdminAnalytics } from '#common/schemas/admin-analytics';
import type { AdminCustomer } from '#common/schemas/admin-customers';
import type { AdminDashboard } from '#common/schemas/admin-dashboard';
import type { Db } from '#server/db/client';
import { createOrder } from '../factories/order';
import { createProduct } from '../factories/product';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

const DAY = 86_400_000;
const daysAgo = (n: number, extraMs = 0) => new Date(Date.now() - n * DAY - extraMs);
const utcDay = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

/** The summary and search tables as triggers left them, then as their rebuild functions recompute them. */
async function summaries(db: Db) {
  const read = async () => ({
    daily: (
      await sql<
        Record<string, unknown>
      >`select to_char(day, 'YYYY-MM-DD') as day, payment_method, orders::int,
        amount_cents::bigint::text as amount, revenue_cents::bigint::text as revenue
        from admin_daily_stats where orders <> 0 or amount_cents <> 0 or revenue_cents <> 0 order by 1, 2`.execute(
        db,
      )
    ).rows,
    categories: (
      await sql<
        Record<string, unknown>
      >`select category, quantity::text, revenue_cents::text from admin_category_stats
        where quantity <> 0 or revenue_cents <> 0 order by 1`.execute(db)
    ).rows,
    customers: (
      await sql<Record<string, unknown>>`select email, first_name, last_name, orders, spent_cents::text,
        first_order_at, last_order_at from admin_customer_stats order by 1`.execute(db)
    ).rows,
    search: (
      await sql<
        Record<string, unknown>
      >`select order_id, created_at, search_text from admin_order_search order by 1`.execute(db)
    ).rows,
    statuses: (
      await sql<
        Record<string, unknown>
      >`select status, to_char(day, 'YYYY-MM-DD') as day, payment_method, orders
        from admin_order_status_stats where orders <> 0 order by 1, 2, 3`.execute(db)
    ).rows,
  });
  const live = await read();
  await sql`select admin_stats_rebuild()`.execute(db);
  await sql`select admin_order_search_rebuild()`.execute(db);
  return { live, rebuilt: await read() };
}

describe.each(BACKENDS)('admin dashboard, customers and analytics (%s)', (backend) => {
  describe('with no data', () => {
    let t: TestApp;
    let c: AdminClients;
    beforeAll(async () => {
      t = await startTestApp({ backend });
      c = await signInClients(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('answers zeros, every day present, no trends', async () => {
      const dashboard = await json<AdminDashboard>(await c.admin.get('/api/admin/dashboard'), 200);
      expect(dashboard.totals).toEqual({
        orders: { value: 0, trend: null },
        products: { value: 0, trend: null },
        customers: { value: 0, trend: null },
        revenueCents: { value: 0, trend: null },
      });
      expect(dashboard.salesOverview).toEqual(
        [6, 5, 4, 3, 2, 1, 0].map((n) => ({ date: utcDay(n), revenueCents: 0, orders: 0 })),
      );
      expect(dashboard.recentOrders).toEqual([]);
      expect(dashboard.recentAudit).toEqual([]);

      const analytics = await json<AdminAnalytics>(await c.admin.get('/api/admin/analytics'), 200);
      expect(analytics.dailySales).toHaveLength(30);
      expect(analytics.dailySales[0]!.date).toBe(utcDay(29));
      expect(analytics.dailySales[29]!.date).toBe(utcDay(0));
      expect(analytics.dailySales.every((d) => d.revenueCents === 0 && d.orders === 0)).toBe(true);
      expect(analytics.categories).toEqual([]);
      expect(analytics.paymentMethods).toEqual([
        { method: 'card', orders: 0, amountCents: 0 },
        { method: 'sol', orders: 0, amountCents: 0 },
        { method: 'aelo', orders: 0, amountCents: 0 },
      ]);
      expect(analytics.retention).toEqual([
        { segment: 'one_time', label: 'One-time', customers: 0 },
        { segment: 'returning', label: 'Returning', customers: 0 },
        { segment: 'loyal', label: 'Loyal', customers: 0 },
      ]);
      const customers = await json<Page<AdminCustomer>>(await c.admin.get('/api/admin/customers'), 200);
      expect(customers).toEqual({ items: [], page: 1, pageSize: 50, total: 0, hasMore: false });
    });
  });

  describe('with orders', () => {
    let t: TestApp;
    let c: AdminClients;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      t = await startTestApp({ backend });
      c = await signInClients(t);
      const db = t.deps.database.db;
      // A shop set up a month ago: trends need a whole earlier week of the shop.
      await sql`update schema_migrations set applied_at = now() - interval '30 days'`.execute(db);
      // Products: 2 this week, 1 the week before.
      await createProduct(db, { createdAt: daysAgo(1) });
      await createProduct(db, { createdAt: daysAgo(2) });
      await createProduct(db, { createdAt: daysAgo(9) });

      // loyal@: 3 orders (one 40 days ago, one 8 days ago, one today); name from the latest.
      ids.loyalOld = (
        await createOrder(db, {
          email: 'loyal@example.com',
          firstName: 'Old',
          lastName: 'Name',
          createdAt: daysAgo(40),
          items: [{ category: 'womens-bras', priceCents: 2000, quantity: 1 }],
        })
      ).id;
      ids.loyalMid = (
        await createOrder(db, {
          email: 'loyal@example.com',
          firstName: 'Mid',
          lastName: 'Name',
          createdAt: daysAgo(8),
          paymentMethod: 'sol',
          items: [{ category: 'womens-leggings', priceCents: 5000, quantity: 2 }],
        })
      ).id;
      ids.loyalNew = (
        await createOrder(db, {
          email: 'loyal@example.com',
          firstName: 'Lola',
          lastName: 'Loyal',
          createdAt: daysAgo(0, 60_000),
          items: [
            { category: 'womens-leggings', priceCents: 3000, quantity: 1 },
            { category: 'mens-tops', priceCents: 1500, quantity: 3 },
          ],
          amountCents: 8000,
        })
      ).id;
      // returning@: 2 orders this week, one of them failed (paid, refunded): counts as an order, not as money.
      ids.returningA = (
        await createOrder(db, {
          email: 'returning@example.com',
          firstName: 'Rita',
          lastName: 'Return',
          createdAt: daysAgo(2),
          paymentMethod: 'aelo',
          items: [{ category: 'mens-tops', priceCents: 4000, quantity: 1 }],
        })
      ).id;
      ids.returningFailed = (
        await createOrder(db, {
          email: 'returning@example.com',
          firstName: 'Rita',
          lastName: 'Return',
          createdAt: daysAgo(1),
          status: 'failed',
          items: [{ category: 'mens-jackets', priceCents: 9900, quantity: 1 }],
        })
      ).id;
      // once@: one order 10 days ago (previous week).
      ids.once = (
        await createOrder(db, {
          email: 'once@example.com',
          firstName: 'Oona',
          lastName: 'Once',
          createdAt: daysAgo(10),
          items: [{ category: 'womens-bras', priceCents: 2500, quantity: 2 }],
        })
      ).id;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('shows no trend while the shop is younger than two weeks (backdated rows or not)', async () => {
      const db = t.deps.database.db;
      const { rows } = await sql<{ at: Date }>`select min(applied_at) as at from schema_migrations`.execute(
        db,
      );
      try {
        await sql`update schema_migrations set applied_at = now() - interval '10 days'`.execute(db);
        const d = await json<AdminDashboard>(await c.admin.get('/api/admin/dashboard'), 200);
        expect(d.totals.orders.value).toBe(6);
        expect(Object.values(d.totals).map((stat) => stat.trend)).toEqual([null, null, null, null]);
      } finally {
        await sql`update schema_migrations set applied_at = ${rows[0]!.at}`.execute(db);
      }
    });

    it('computes the dashboard totals, week-over-week trends, 7 zero-filled days and recent orders', async () => {
      const d = await json<AdminDashboard>(await c.admin.get('/api/admin/dashboard'), 200);
      // Revenue: what the non-failed orders charged = 2000 + 10000 + 8000 + 4000 + 5000 (migration 0023).
      expect(d.totals.revenueCents.value).toBe(29_000);
      expect(d.totals.orders.value).toBe(6);
      expect(d.totals.customers.value).toBe(3);
      expect(d.totals.products.value).toBe(3);
      // This week: orders today, -1 (failed), -2 = 3; the week before: -8, -10 = 2.
      expect(d.totals.orders.trend).toBe(50);
      // Revenue this week 8000 + 4000 = 12000; before: 10000 + 5000 = 15000 -> -20 %.
      expect(d.totals.revenueCents.trend).toBe(-20);
      // New customers this week: returning@ (first order -2); before: once@ (-10) -> 0 %.
      expect(d.totals.customers.trend).toBe(0);
      // Products: 2 this week, 1 before -> +100 %.
      expect(d.totals.products.trend).toBe(100);

      expect(d.salesOverview.map((s) => s.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map(utcDay));
      expect(d.salesOverview.map((s) => s.revenueCents)).toEqual([0, 0, 0, 0, 4000, 0, 8000]);
      expect(d.salesOverview.map((s) => s.orders)).toEqual([0, 0, 0, 0, 1, 1, 1]);

      expect(d.recentOrders.map((o) => o.id)).toEqual([
        ids.loyalNew,
        ids.returningFailed,
        ids.returningA,
        ids.loyalMid,
        ids.once,
      ]);
      expect(d.recentOrders[0]).toMatchObject({
        shortId: ids.loyalNew!.slice(0, 8),
        amountCents: 8000,
        status: 'pending',
      });
    });

    it('groups customers by shipping email with the latest name, sorts, searches and pages', async () => {
      const get = async (query = '') =>
        json<Page<AdminCustomer>>(await c.admin.get(`/api/admin/customers${query}`), 200);
      const byLast = await get();
      expect(byLast.total).toBe(3);
      expect(byLast.items.map((x) => x.email)).toEqual([
        'loyal@example.com',
        'returning@example.com',
        'once@example.com',
      ]);
      expect(byLast.items[0]).toMatchObject({
        firstName: 'Lola',
        lastName: 'Loyal',
        totalOrders: 3,
        totalSpentCents: 2000 + 10000 + 8000,
      });
      expect(byLast.items[1]).toMatchObject({ totalOrders: 2, totalSpentCents: 4000 });

      expect((await get('?sort=total_spent')).items.map((x) => x.totalSpentCents)).toEqual([
        20000, 5000, 4000,
      ]);
      expect((await get('?sort=total_orders')).items.map((x) => x.totalOrders)).toEqual([3, 2, 1]);
      expect((await get('?search=RITA')).items.map((x) => x.email)).toEqual(['returning@example.com']);
      expect((await get('?search=once@')).items.map((x) => x.email)).toEqual(['once@example.com']);
      expect((await get('?search=ONCE%40example.com')).items.map((x) => x.email)).toEqual([
        'once@example.com',
      ]);
      expect((await get('?search=once')).total).toBeNull();
      const paged = await get('?pageSize=2&page=2');
      expect(paged).toMatchObject({ total: 3, hasMore: false });
      expect(paged.items.map((x) => x.email)).toEqual(['once@example.com']);

      const bad = await json<ErrorJson>(await c.admin.get('/api/admin/customers?sort=name'), 400);
      expect(bad.error.fields?.sort).toBe('sort must be one of last_order, total_spent, total_orders');
      expect(
        (await json<ErrorJson>(await c.admin.get('/api/admin/customers?page=-1'), 400)).error.fields?.page,
      ).toEqual(expect.any(String));
    });

    it('computes analytics: 30 zero-filled days, categories, payment methods, retention', async () => {
      const a = await json<AdminAnalytics>(await c.admin.get('/api/admin/analytics'), 200);
      expect(a.dailySales).toHaveLength(30);
      const byDate = new Map(a.dailySales.map((s) => [s.date, s]));
      expect(byDate.get(utcDay(8))).toEqual({ date: utcDay(8), revenueCents: 10000, orders: 1 });
      expect(byDate.get(utcDay(10))).toEqual({ date: utcDay(10), revenueCents: 5000, orders: 1 });
      expect(byDate.get(utcDay(1))).toEqual({ date: utcDay(1), revenueCents: 0, orders: 1 });
      expect(byDate.has(utcDay(40))).toBe(false);

      expect(a.categories).toEqual([
        // The 8000 charged for 3000 + 4500 of items is shared 3200 / 4800 (migration 0023).
        { category: 'womens-leggings', label: 'Womens Leggings', quantity: 3, revenueCents: 13200 },
        { category: 'mens-tops', label: 'Mens Tops', quantity: 4, revenueCents: 8800 },
        { category: 'womens-bras', label: 'Womens Bras', quantity: 3, revenueCents: 7000 },
      ]);
      expect(a.paymentMethods).toEqual([
        { method: 'card', orders: 4, amountCents: 2000 + 8000 + 5000 },
        { method: 'sol', orders: 1, amountCents: 10000 },
        { method: 'aelo', orders: 1, amountCents: 4000 },
      ]);
      expect(a.retention.map((r) => r.customers)).toEqual([1, 1, 1]);
    });

    it('keeps the summaries exactly equal to a recomputation through updates and deletes', async () => {
      // failed -> completed brings its money in; completed -> failed takes it out; deletes remove all.
      expect(
        (await c.admin.patch(`/api/admin/orders/${ids.returningFailed}`, { status: 'completed' })).status,
      ).toBe(200);
      expect((await c.admin.patch(`/api/admin/orders/${ids.loyalMid}`, { status: 'failed' })).status).toBe(
        200,
      );
      expect(
        (
          await c.admin.patch(`/api/admin/orders/${ids.loyalOld}`, {
            status: 'shipped',
            trackingNumber: '9400100000000000000001',
          })
        ).status,
      ).toBe(200);
      expect((await c.admin.delete(`/api/admin/orders/${ids.loyalNew}`)).status).toBe(200);
      expect((await c.admin.delete(`/api/admin/orders/${ids.once}`)).status).toBe(200);
      const db = t.deps.database.db;
      // An item deleted on its own, and one added later to an existing order.
      await db.deleteFrom('order_items').where('order_id', '=', ids.returningA!).execute();
      await db
        .insertInto('order_items')
        .values({
          order_id: ids.returningA!,
          title: 'Late line',
          image: 'x.webp',
          category: 'mens-hoodies',
          quantity: 2,
          price_cents: 3100,
        })
        .execute();

      const customers = await json<Page<AdminCustomer>>(await c.admin.get('/api/admin/customers'), 200);
      expect(customers.items.map((x) => [x.email, x.firstName, x.totalOrders, x.totalSpentCents])).toEqual([
        ['returning@example.com', 'Rita', 2, 4000 + 9900],
        ['loyal@example.com', 'Mid', 2, 2000],
      ]);
      const { live, rebuilt } = await summaries(db);
      expect(live).toEqual(rebuilt);
      expect(live.search.find((r) => r.order_id === ids.returningA)?.search_text).toContain('late line');
    });
  });
});
