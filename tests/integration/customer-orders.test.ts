/**
 * GET /api/orders: a signed-in customer's own orders only, and those placed with the account's
 * email only once that email is confirmed; search by id, status and item title; status and age
 * filters; never another customer's, whatever the query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerOrdersResponse } from '#common/schemas/customer-orders';
import { createOrder } from '../factories/order';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { json } from './admin-test-kit';
import { signUpAndIn } from '../helpers/sign-up';

let counter = 0;

async function customer(t: TestApp): Promise<{ client: TestClient; id: string; email: string }> {
  const email = `orders-${Date.now().toString(36)}-${counter++}@example.com`;
  const client = t.client();
  const body = await json<{ user: { id: string } }>(
    await signUpAndIn(client, { email, password: 'pebble-garden-33' }),
    200,
  );
  return { client, id: body.user.id, email };
}

describe.each(BACKENDS)('customer orders on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  }, 60_000);
  afterAll(() => t.close());

  const list = async (client: TestClient, query = '') =>
    json<CustomerOrdersResponse>(await client.get(`/api/orders${query}`), 200);

  it('shows the account its own orders, and email-matched ones only once the email is confirmed', async () => {
    const a = await customer(t);
    const b = await customer(t);
    const db = t.deps.database.db;
    const own = await createOrder(db, { userId: a.id, email: a.email });
    const byEmail = await createOrder(db, { userId: null, email: a.email });
    const others = await createOrder(db, { userId: b.id, email: b.email });
    await createOrder(db, { userId: null, email: b.email });

    let seen = await list(a.client);
    expect(seen.emailVerified).toBe(false);
    expect(seen.orders.map((o) => o.id)).toEqual([own.id]);

    await db.updateTable('users').set({ email_verified: true }).where('id', '=', a.id).execute();
    seen = await list(a.client);
    expect(seen.orders.map((o) => o.id).sort()).toEqual([own.id, byEmail.id].sort());
    // Whatever the query, never B's.
    for (const query of [
      `?search=${others.id}`,
      `?search=${others.id.slice(0, 8)}`,
      '?status=pending',
      '?age=7d',
    ]) {
      expect((await list(a.client, query)).orders.map((o) => o.id)).not.toContain(others.id);
    }
    await json(await t.client().get('/api/orders'), 401);
  });

  it('searches by order id, status and item title, and filters by status and age', async () => {
    const a = await customer(t);
    const db = t.deps.database.db;
    const day = 86_400_000;
    const recent = await createOrder(db, { userId: a.id, items: [{ title: 'Cloud Run Shorts' }] });
    const shipped = await createOrder(db, {
      userId: a.id,
      status: 'shipped',
      trackingNumber: '9400111899223817',
      createdAt: new Date(Date.now() - 20 * day),
      items: [{ title: 'Aurora Sports Bra' }],
    });
    const old = await createOrder(db, {
      userId: a.id,
      status: 'completed',
      createdAt: new Date(Date.now() - 120 * day),
      items: [{ title: 'Vintage Track Jacket' }],
    });
    const ids = async (query: string) => (await list(a.client, query)).orders.map((o) => o.id);

    expect(await ids('')).toEqual([recent.id, shipped.id, old.id]);
    expect(await ids('?search=aurora')).toEqual([shipped.id]);
    expect(await ids(`?search=${old.id.slice(0, 8)}`)).toEqual([old.id]);
    expect(await ids('?search=shipped')).toEqual([shipped.id]);
    expect(await ids('?status=completed')).toEqual([old.id]);
    expect(await ids('?age=7d')).toEqual([recent.id]);
    expect(await ids('?age=30d')).toEqual([recent.id, shipped.id]);
    expect(await ids('?age=older')).toEqual([old.id]);
    expect(await ids('?search=%25')).toEqual([]);
    await json(await a.client.get('/api/orders?status=lost'), 400);

    const [order] = (await list(a.client, '?search=aurora')).orders;
    expect(order).toMatchObject({
      status: 'shipped',
      trackingNumber: '9400111899223817',
      items: [{ title: 'Aurora Sports Bra', quantity: 1 }],
    });
    expect(order!.shippingInfo.name.length).toBeGreaterThan(0);
  });
});
