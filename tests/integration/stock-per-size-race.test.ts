import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { type Database, type Db } from '#server/db/client';
import { SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import { createScratchDatabase, TEST_DATABASE_URL, type ScratchDatabase } from '../helpers/databases';
import { openTestDatabase, startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Shoppers racing for the last unit of one size, on PostgreSQL (PGlite is one connection, so
 * nothing races there): 40 concurrent checkouts of XS (1 left) and of S (3 left) of one product
 * give exactly one XS and three S holds, every other shopper a clear 409 naming the size, and no
 * size's count below zero; the product's Quantity stays the sizes' sum throughout.
 */

const ROUNDS = 5;
const SHOPPERS = 40;

if (!TEST_DATABASE_URL) {
  console.warn(
    'SKIPPED: concurrent per-size checkout races (PostgreSQL only: set TEST_DATABASE_URL to run them)',
  );
}

describe.skipIf(!TEST_DATABASE_URL)('concurrent checkouts of one size on postgres', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    fake = await startFakeStripe();
    scratch = await createScratchDatabase('postgres');
    database = await openTestDatabase(scratch, { poolSize: 20 });
    t = await startTestApp({
      backend: 'postgres',
      scratch,
      database,
      env: {
        ...stripeEnv(fake),
        CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
        CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '100000',
        ANONYMOUS_HOLD_SHARE_PERCENT: '100',
      },
    });
    db = t.deps.database.db;
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await scratch?.drop();
    await fake?.close();
  });

  const checkout = (productId: string, size: string) =>
    t.client().post('/api/checkout', {
      items: [{ productId, size, color: 'Black', quantity: 1 }],
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
    });

  it(`${SHOPPERS} shoppers for XS (1 left) and S (3 left): one XS and three S, ${ROUNDS} rounds`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const title = `Race Legging ${round}`;
      const product = await createProduct(db, {
        title,
        sizes: ['XS', 'S', 'M'],
        colors: ['Black'],
        sizeGuide: null,
        quantity: 9,
        sizeStock: { XS: 1, S: 3, M: 5 },
      });
      const sizes = Array.from({ length: SHOPPERS }, (_, i) => (i % 2 === 0 ? 'XS' : 'S'));
      const responses = await Promise.all(sizes.map((size) => checkout(product.id, size)));
      const won = { XS: 0, S: 0 } as Record<string, number>;
      for (const [i, res] of responses.entries()) {
        const size = sizes[i]!;
        if (res.status === 201) {
          won[size]! += 1;
          await res.body?.cancel();
          continue;
        }
        expect(res.status, `round ${round}`).toBe(409);
        const error = ((await res.json()) as ErrorBody).error;
        expect(error.code).toBe('OUT_OF_STOCK');
        expect(error.message).toBe(`${title} in ${size} is sold out`);
      }
      expect(won, `round ${round}`).toEqual({ XS: 1, S: 3 });
      const stored = await db
        .selectFrom('products')
        .select(['quantity', 'size_stock'])
        .where('id', '=', product.id)
        .executeTakeFirstOrThrow();
      expect(stored, `round ${round}`).toEqual({ quantity: 5, size_stock: { XS: 0, S: 0, M: 5 } });
      const held = await db
        .selectFrom('stock_reservations')
        .select(['size', (eb) => eb.fn.sum<string>('quantity').as('units')])
        .where('product_id', '=', product.id)
        .where('released_at', 'is', null)
        .groupBy('size')
        .orderBy('size')
        .execute();
      expect(held.map((h) => [h.size, Number(h.units)])).toEqual([
        ['S', 3],
        ['XS', 1],
      ]);
    }
  });
});
