import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#common/schemas/admin';
import type { AuditEntry } from '#common/schemas/admin-audit';
import type { AdminOrder } from '#common/schemas/admin-orders';
import { createOrder } from '../factories/order';
import { TEST_DATABASE_URL, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients } from './admin-test-kit';

/**
 * Concurrency only means something on PostgreSQL (PGlite is one connection): orders for the same
 * customer and day written at once keep the summary tables exact (their upserts serialise on the
 * summary rows) and never deadlock, and concurrent admin edits of one order are applied one after
 * the other, each with its own audit entry.
 */
const describePostgres = TEST_DATABASE_URL ? describe : describe.skip;
if (!TEST_DATABASE_URL) warnIfPostgresSkipped();

describePostgres('admin writes under concurrency (postgres)', () => {
  let t: TestApp;
  let c: AdminClients;

  beforeAll(async () => {
    t = await startTestApp({ backend: 'postgres' });
    c = await signInClients(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the summaries exact when orders of one customer and day commit at once', async () => {
    const db = t.deps.database.db;
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        createOrder(db, {
          email: 'busy@example.com',
          paymentMethod: i % 2 ? 'sol' : 'card',
          status: i % 6 === 0 ? 'failed' : 'pending',
          items: [{ category: 'womens-tanks', priceCents: 1000 + i, quantity: 1 + (i % 3) }],
        }),
      ),
    );
    const customer = await db
      .selectFrom('admin_customer_stats')
      .select(['orders'])
      .where('email', '=', 'busy@example.com')
      .executeTakeFirstOrThrow();
    expect(customer.orders).toBe(24);
    const snapshot = async () => ({
      daily: (await sql`select * from admin_daily_stats order by 1, 2`.execute(db)).rows,
      categories: (await sql`select * from admin_category_stats order by 1`.execute(db)).rows,
      customers: (await sql`select * from admin_customer_stats order by 1`.execute(db)).rows,
    });
    const live = await snapshot();
    await sql`select admin_stats_rebuild()`.execute(db);
    expect(live).toEqual(await snapshot());
  });

  it('never deadlocks when concurrent orders share categories in different orders', async () => {
    const db = t.deps.database.db;
    const categories = ['mens-tops', 'mens-shorts', 'womens-bras', 'womens-skirts'];
    const results = await Promise.allSettled(
      Array.from({ length: 32 }, (_, i) =>
        createOrder(db, {
          email: `shopper${i % 8}@example.com`,
          paymentMethod: (['card', 'sol', 'aelo'] as const)[i % 3],
          // Each order lists the categories rotated, so two orders meet them in opposite orders.
          items: categories.map((_, k) => ({
            category: categories[(k + i) % categories.length]!,
            priceCents: 500 + k,
          })),
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const row = await db
      .selectFrom('admin_category_stats')
      .select(['quantity'])
      .where('category', '=', 'womens-skirts')
      .executeTakeFirstOrThrow();
    expect(Number(row.quantity)).toBe(32);
  });

  it('applies concurrent edits of one order one after the other, each audited', async () => {
    const order = await createOrder(t.deps.database.db, { email: 'race@example.com' });
    const results = await Promise.all(
      ['shipped', 'completed', 'failed', 'pending', 'shipped', 'completed'].map((status, i) =>
        c.admin.patch(`/api/admin/orders/${order.id}`, {
          status,
          // A USPS number each (the admin's tracking numbers are checked against USPS's formats).
          trackingNumber: `9400${String(i).padStart(18, '0')}`,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const audit = await json<Page<AuditEntry>>(
      await c.admin.get('/api/admin/audit?action=update_order&search=race'),
      200,
    );
    expect(audit.items).toHaveLength(0); // the email is not in the entry; search by order id instead
    const byId = await json<Page<AuditEntry>>(
      await c.admin.get(`/api/admin/audit?action=update_order&search=${order.id}`),
      200,
    );
    expect(byId.items).toHaveLength(6);
    // Each entry's "from" is the previous entry's "to": the edits did not interleave.
    const chain = byId.items
      .slice()
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((e) => (e.details.changes as { status: { from: string; to: string } }).status);
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.from).toBe(chain[i - 1]!.to);
    const final = await json<AdminOrder>(await c.admin.get(`/api/admin/orders/${order.id}`), 200);
    expect(final.status).toBe(chain.at(-1)!.to);
  });
});
