import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminStatsRepository } from '#server/modules/admin/admin-stats.repository';
import { createOrdersAdminRepository } from '#server/modules/orders/orders-admin.repository';
import { createOrder } from '../factories/order';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The orders and customers searches run in two steps (filter the newest rows of a window; when
 * they hold too few matches, collect every match). Whatever the window, the pages must be the
 * same: here a window of 3 forces both steps on a small data set.
 */
describe.each(BACKENDS)('admin searches in two steps (%s)', (backend) => {
  let t: TestApp;
  const HOUR = 3_600_000;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    const db = t.deps.database.db;
    // 12 orders, newest last; "common" in every title, "scarce" in two old ones; 4 customers.
    for (let i = 0; i < 12; i++) {
      await createOrder(db, {
        email: `buyer${i % 4}@example.com`,
        lastName: i % 4 === 0 ? 'Rarename' : `Family${i % 4}`,
        createdAt: new Date(Date.now() - (12 - i) * HOUR),
        items: [{ title: i === 1 || i === 2 ? 'Common Scarce Jacket' : 'Common Tee' }],
      });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pages orders the same whatever the window', async () => {
    const db = t.deps.database.db;
    const small = createOrdersAdminRepository(db, { searchWindow: 3 });
    const large = createOrdersAdminRepository(db);
    for (const search of ['common', 'scarce', 'rarename', 'buyer1@', 'nothing-matches']) {
      for (const [limit, offset] of [
        [2, 0],
        [2, 2],
        [5, 5],
        [50, 0],
      ] as const) {
        const filter = { search, status: undefined, limit, offset };
        const a = await small.findPage(filter);
        const b = await large.findPage(filter);
        expect(
          a.rows.map((r) => r.id),
          `${search} ${limit}/${offset}`,
        ).toEqual(b.rows.map((r) => r.id));
        expect(a.hasMore).toBe(b.hasMore);
      }
    }
    const rare = await small.findPage({ search: 'scarce', status: undefined, limit: 5, offset: 0 });
    expect(rare.rows).toHaveLength(2);
    expect(rare.hasMore).toBe(false);
  });

  it('pages customers the same whatever the window and sort', async () => {
    const db = t.deps.database.db;
    const small = createAdminStatsRepository(db, { customerWindow: 2 });
    const large = createAdminStatsRepository(db);
    for (const sort of ['last_order', 'total_spent', 'total_orders'] as const) {
      for (const search of ['buyer', 'rarename', 'family2', 'zzz']) {
        for (const [limit, offset] of [
          [1, 0],
          [1, 1],
          [3, 0],
        ] as const) {
          const filter = { search, sort, limit, offset };
          const a = await small.findCustomers(filter);
          const b = await large.findCustomers(filter);
          expect(a.rows, `${sort} ${search} ${limit}/${offset}`).toEqual(b.rows);
          expect(a.hasMore).toBe(b.hasMore);
        }
      }
    }
    const rare = await small.findCustomers({ search: 'RARENAME', sort: 'last_order', limit: 5, offset: 0 });
    expect(rare.rows.map((r) => r.email)).toEqual(['buyer0@example.com']);
  });
});
