import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { type Database, type Db } from '#server/db/client';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { createScratchDatabase, TEST_DATABASE_URL, type ScratchDatabase } from '../helpers/databases';
import { openTestDatabase, startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Shoppers racing for the last item, on PostgreSQL (PGlite is one connection, so nothing races
 * there): 50 concurrent checkouts of a product with quantity 1 give exactly one reservation and
 * 49 clear 409s, and stock never goes below zero. Repeated 20 times, each round a fresh product.
 */

const ROUNDS = 20;
const SHOPPERS = 50;

const SHIPPING = {
  firstName: 'Race',
  lastName: 'Runner',
  email: 'racer@example.com',
  phone: '5551112222',
  address: '3 Track Rd',
  city: 'Eugene',
  state: 'OR',
  zipCode: '97401',
  country: 'US',
};

if (!TEST_DATABASE_URL) {
  console.warn('SKIPPED: concurrent checkout races (PostgreSQL only: set TEST_DATABASE_URL to run them)');
}

describe.skipIf(!TEST_DATABASE_URL)('concurrent checkouts on postgres', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    fake = await startFakeStripe();
    scratch = await createScratchDatabase('postgres');
    // More connections than the default test pool, so that many transactions really overlap.
    database = await openTestDatabase(scratch, { poolSize: 20 });
    t = await startTestApp({
      backend: 'postgres',
      scratch,
      database,
      env: stripeEnv(fake),
    });
    db = t.deps.database.db;
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await scratch?.drop();
    await fake?.close();
  });

  async function insertProduct(title: string, quantity: number) {
    const row = await db
      .insertInto('products')
      .values({
        title,
        brand: 'Adidas',
        price_cents: 1_500,
        images: ['products/race-800.webp'],
        quantity,
        sizes: [],
        colors: [],
        gender: 'mens',
        category: 'mens-shorts',
        shipping_weight: '0.4',
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const checkout = (productId: string, quantity = 1) =>
    t.client().post('/api/checkout', {
      items: [{ productId, quantity }],
      shippingInfo: SHIPPING,
      paymentMethod: 'card',
    });

  async function reservedUnits(productId: string): Promise<{ count: number; units: number }> {
    const row = await db
      .selectFrom('stock_reservations')
      .select([
        sql<number>`count(*)::int`.as('count'),
        sql<number>`coalesce(sum(quantity), 0)::int`.as('units'),
      ])
      .where('product_id', '=', productId)
      .where('released_at', 'is', null)
      .executeTakeFirstOrThrow();
    return row;
  }

  it(`${SHOPPERS} shoppers, one last item: exactly one reservation, ${ROUNDS} rounds`, async () => {
    // Refusals decided by the conditional decrement itself (the shopper had read quantity 1 and
    // lost the race), as opposed to those that already read 0: proof that the race happened.
    let lostRaces = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const title = `Race Shorts ${round}`;
      const productId = await insertProduct(title, 1);
      const responses = await Promise.all(Array.from({ length: SHOPPERS }, () => checkout(productId)));
      const statuses = responses.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 201),
        `round ${round}`,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        `round ${round}`,
      ).toHaveLength(SHOPPERS - 1);
      for (const res of responses) {
        if (res.status === 201) {
          await res.body?.cancel();
          continue;
        }
        const error = ((await res.json()) as ErrorBody).error;
        expect(error).toMatchObject({ code: 'OUT_OF_STOCK', message: `${title} is sold out` });
        if (!error.fields) lostRaces++;
      }
      const product = await db
        .selectFrom('products')
        .select('quantity')
        .where('id', '=', productId)
        .executeTakeFirstOrThrow();
      expect(product.quantity, `round ${round}`).toBe(0);
      expect(await reservedUnits(productId), `round ${round}`).toEqual({ count: 1, units: 1 });
      const payments = await db
        .selectFrom('payments')
        .select(sql<number>`count(*)::int`.as('n'))
        .where(sql<boolean>`lines @> ${JSON.stringify([{ productId }])}::jsonb`)
        .executeTakeFirstOrThrow();
      expect(payments.n, `round ${round}`).toBe(1);
    }
    expect(fake.sessions.length).toBe(ROUNDS);
    expect(lostRaces).toBeGreaterThan(0);
  });

  it('several units: what is reserved plus what is left always equals the stock, never below zero', async () => {
    const productId = await insertProduct('Race Tee', 7);
    const wanted = Array.from({ length: SHOPPERS }, (_, i) => (i % 3) + 1);
    const responses = await Promise.all(wanted.map((q) => checkout(productId, q)));
    let reserved = 0;
    responses.forEach((res, i) => {
      if (res.status === 201) reserved += wanted[i]!;
      else expect(res.status).toBe(409);
    });
    for (const res of responses) await res.body?.cancel();
    const { quantity } = await db
      .selectFrom('products')
      .select('quantity')
      .where('id', '=', productId)
      .executeTakeFirstOrThrow();
    expect(quantity).toBeGreaterThanOrEqual(0);
    expect(reserved + quantity).toBe(7);
    expect((await reservedUnits(productId)).units).toBe(reserved);
  });
});
