import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/databases';
import {
  clientFor,
  createFixtures,
  fillPath,
  freshCustomer,
  paramsFor,
  routesWithoutSample,
  routeTable,
  SAMPLES,
  type Fixtures,
  type RouteEntry,
} from '../helpers/route-table';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Mass assignment, generated from the router: every mutating route gets its valid sample body plus
 * fields naming what a caller must never set (role, prices, statuses, paid, owners, email
 * verification) at the top level and in every nested object, as the role that calls it. The
 * request is refused (400) or the fields are ignored: the rows those fields name are read before
 * and after, and only the route's own documented fields change (an admin setting a product's
 * price or an order's status), only for the admin.
 */

function injected(adminId: string): Record<string, unknown> {
  return {
    role: 'admin',
    isAdmin: true,
    price: 1,
    priceCents: 1,
    price_cents: 1,
    amountCents: 1,
    amount_cents: 1,
    status: 'completed',
    paid: true,
    isPaid: true,
    user_id: adminId,
    userId: adminId,
    ownerId: adminId,
    emailVerified: true,
    email_verified: true,
  };
}

/** The sample with the injected fields added wherever it has an object (its own fields win). */
function withInjected(value: unknown, extra: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => withInjected(v, extra));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = { ...extra };
  for (const [k, v] of Object.entries(value)) out[k] = withInjected(v, extra);
  return out;
}

/** The routes that take one of the guarded fields legitimately (admin only), and what the sample sets. */
const OWN_FIELDS: Record<string, { table: 'orders' | 'products'; expect: Record<string, unknown> }> = {
  'PATCH /api/admin/orders/:id': { table: 'orders', expect: { status: 'shipped' } },
  'PATCH /api/admin/products/:id': { table: 'products', expect: { price_cents: 5100 } },
  'PUT /api/admin/products/:id': { table: 'products', expect: { price_cents: 5200 } },
};

type Snapshot = Map<string, Record<string, unknown>>;

interface Diff {
  changed: Array<{ key: string; before: Record<string, unknown>; after: Record<string, unknown> }>;
  added: Array<{ key: string; after: Record<string, unknown> }>;
  removed: string[];
}

describe.each(BACKENDS)('mass assignment on every mutating route (%s)', (backend) => {
  let t: TestApp;
  let fx: Fixtures;
  let routes: RouteEntry[];

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' } });
    fx = await createFixtures(t);
    // Deletes last, so the rows the other routes point at are still there.
    routes = routeTable(t.app)
      .filter((r) => r.mutating)
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The fields a mass assignment would aim at, per row. */
  async function snapshot(): Promise<Snapshot> {
    const db = t.deps.database.db;
    const rows = new Map<string, Record<string, unknown>>();
    const read = async (table: string, query: ReturnType<typeof sql<{ id: string }>>) => {
      const { rows: found } = await query.execute(db);
      for (const row of found) rows.set(`${table}:${row.id}`, { ...row });
    };
    await read('users', sql`select id, role, email_verified from users`);
    await read('products', sql`select id::text, price_cents, original_price_cents from products`);
    await read(
      'orders',
      sql`select id::text, status, user_id, amount_cents, refund_required, payment_id::text from orders`,
    );
    await read('payments', sql`select id::text, status, user_id, amount_cents from payments`);
    await read('messages', sql`select id::text, user_id from messages`);
    await read('wallet_links', sql`select user_id as id, wallet_address from wallet_links`);
    await read('token_purchases', sql`select id::text, status from token_purchases`);
    return rows;
  }

  function diff(before: Snapshot, after: Snapshot): Diff {
    const d: Diff = { changed: [], added: [], removed: [] };
    for (const [key, row] of after) {
      const old = before.get(key);
      if (!old) d.added.push({ key, after: row });
      else if (JSON.stringify(old) !== JSON.stringify(row)) d.changed.push({ key, before: old, after: row });
    }
    for (const key of before.keys()) if (!after.has(key)) d.removed.push(key);
    return d;
  }

  it('has a sample body for every mutating route of the router', () => {
    expect(routesWithoutSample(routeTable(t.app))).toEqual([]);
    expect(routes.length).toBeGreaterThan(30);
  });

  it('ignores or refuses role, price, status, paid, owner and emailVerified in any body', async () => {
    const extra = injected(fx.adminId);
    const applied: string[] = [];
    for (const route of routes) {
      const sample = SAMPLES[route.key]!;
      const client =
        sample.who === 'customer' && sample.endsSession ? await freshCustomer(t) : clientFor(fx, sample.who);
      const callerId =
        sample.who === 'admin'
          ? fx.adminId
          : sample.who === 'customer'
            ? ((await (await client.get('/api/auth/me')).json()) as { user: { id: string } | null }).user?.id
            : undefined;
      const params = paramsFor(route, fx);
      const body = withInjected(sample.body?.(fx) ?? {}, extra);
      const before = await snapshot();
      const res = await client.request(route.method, fillPath(route.path, params), { json: body });
      const label = `${sample.who} ${route.key} (${res.status}) ${(await res.text()).slice(0, 200)}`;
      expect(res.status, label).toBeLessThan(500);
      const d = diff(before, await snapshot());

      // Rows a route creates: its own, with what the server decides, never what the body said.
      for (const { key, after } of d.added) {
        const at = `${label}: new ${key} ${JSON.stringify(after)}`;
        if (key.startsWith('users:'))
          expect([after.role, after.email_verified], at).toEqual(['customer', false]);
        if (key.startsWith('products:')) {
          expect(route.key, at).toBe('POST /api/admin/products');
          expect(after.price_cents, at).toBe(4800);
        }
        if (key.startsWith('payments:')) {
          expect(after.status, at).toBe('pending');
          expect(after.amount_cents, at).not.toBe(1);
          expect([callerId ?? null, null], at).toContain(after.user_id);
        }
        // A ticket is its caller's; a guest's message (the contact form) is nobody's.
        if (key.startsWith('messages:')) expect(after.user_id, at).toBe(callerId ?? null);
        expect(key.startsWith('orders:') || key.startsWith('wallet_links:'), at).toBe(false);
      }
      // Rows a route changes: only the admin's documented fields, with the sample's values.
      for (const { key, before: was, after } of d.changed) {
        const at = `${label}: ${key} ${JSON.stringify(was)} -> ${JSON.stringify(after)}`;
        if (route.key === 'PATCH /api/admin/orders/:id' && key === `orders:${fx.orderId}`) {
          expect(after, at).toEqual({ ...was, status: 'shipped' });
          applied.push(route.key);
        } else if (route.key === 'PATCH /api/admin/products/:id' && key === `products:${fx.productId}`) {
          expect(after, at).toEqual({ ...was, price_cents: 5100 });
          applied.push(route.key);
        } else if (route.key === 'PUT /api/admin/products/:id' && key === `products:${fx.productId}`) {
          expect(after, at).toEqual({ ...was, price_cents: 5200 });
          applied.push(route.key);
        } else if (key.startsWith('payments:') && route.key === 'POST /api/payments/:reference/cancel') {
          // Cancelling the fixture's pending payment is what the route does.
          expect([was.status, after.status], at).toEqual(['pending', 'cancelled']);
        } else if (key.startsWith('payments:') && route.key === 'POST /api/checkout') {
          // A new checkout from the same cart replaces the caller's earlier one.
          expect(after.status, at).not.toBe('confirmed');
        } else {
          expect.fail(`unexpected change: ${at}`);
        }
      }
      for (const key of d.removed) {
        expect(route.method, `${label}: removed ${key}`).toBe('DELETE');
      }
      // A strict schema refused the whole body (400): its own fields alone still apply, for the admin.
      const own = OWN_FIELDS[route.key];
      if (own && res.status === 400) {
        const key = `${own.table}:${own.table === 'orders' ? fx.orderId : fx.productId}`;
        const was = (await snapshot()).get(key)!;
        const plain = await client.request(route.method, fillPath(route.path, params), {
          json: sample.body?.(fx),
        });
        expect(plain.status, `${route.key} without the injected fields: ${await plain.clone().text()}`).toBe(
          200,
        );
        await plain.body?.cancel();
        expect((await snapshot()).get(key), route.key).toEqual({ ...was, ...own.expect });
        applied.push(route.key);
      }
    }
    // The admin's own fields did apply: the test would see a route that ignored everything.
    expect(applied.sort()).toEqual([
      'PATCH /api/admin/orders/:id',
      'PATCH /api/admin/products/:id',
      'PUT /api/admin/products/:id',
    ]);
  });

  it("refuses the admin's own routes to a customer, with those fields or without, and changes nothing", async () => {
    for (const route of routes.filter((r) => SAMPLES[r.key]!.who === 'admin')) {
      for (const body of [SAMPLES[route.key]!.body?.(fx) ?? {}, injected(fx.adminId)]) {
        const before = await snapshot();
        const res = await fx.customer.request(route.method, fillPath(route.path, paramsFor(route, fx)), {
          json: body,
        });
        expect(res.status, route.key).toBe(403);
        await res.body?.cancel();
        expect(diff(before, await snapshot()), route.key).toEqual({ changed: [], added: [], removed: [] });
      }
    }
  });
});
