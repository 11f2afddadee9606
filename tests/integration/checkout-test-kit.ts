/**
 * What the checkout tests share (checkout, checkout-refusals, checkout-accounts and
 * checkout-stripe-keys): POST /api/checkout through the real app, with the real Stripe SDK talking
 * to the local Stripe stand-in over HTTP, on a scratch database of each backend.
 */
import type { ErrorBody } from '#common/errors';
import { type Database, type Db } from '#server/db/client';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import {
  createScratchDatabase,
  warnIfPostgresSkipped,
  type Backend,
  type ScratchDatabase,
} from '../helpers/databases';
import { openTestDatabase, startTestApp, type TestApp } from '../helpers/test-app';

export const SHIPPING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'Ada@Example.com',
  phone: '(555) 123-4567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

let productCounter = 0;
export async function insertProduct(
  db: Db,
  overrides: Partial<{
    title: string;
    priceCents: number;
    quantity: number;
    sizes: string[];
    colors: string[];
  }> = {},
) {
  const title = overrides.title ?? `Test Legging ${++productCounter}`;
  const row = await db
    .insertInto('products')
    .values({
      title,
      brand: 'Lululemon',
      price_cents: overrides.priceCents ?? 2_000,
      images: ['products/test-800.webp'],
      quantity: overrides.quantity ?? 3,
      sizes: overrides.sizes ?? ['S', 'M'],
      colors: overrides.colors ?? ['Black', 'Navy'],
      gender: 'womens',
      category: 'womens-leggings',
      shipping_weight: '0.5',
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, title };
}

export async function quantityOf(db: Db, productId: string): Promise<number> {
  const row = await db
    .selectFrom('products')
    .select('quantity')
    .where('id', '=', productId)
    .executeTakeFirstOrThrow();
  return row.quantity;
}

export async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}

export const line = (
  productId: string,
  quantity = 1,
  size: string | null = 'S',
  color: string | null = 'Black',
) => ({
  productId,
  size,
  color,
  quantity,
});

/** The shop under test, its database and the Stripe stand-in its webhooks come from. */
export interface CheckoutApp {
  scratch: ScratchDatabase;
  database: Database;
  fake: FakeStripeServer;
  t: TestApp;
  db: Db;
  close(): Promise<void>;
}

export async function startCheckoutApp(backend: Backend): Promise<CheckoutApp> {
  warnIfPostgresSkipped();
  const fake = await startFakeStripe();
  const scratch = await createScratchDatabase(backend);
  const database = await openTestDatabase(scratch, { poolSize: 5 });
  const t = await startTestApp({
    backend,
    scratch,
    database,
    env: {
      ...stripeEnv(fake),
      SIGN_IN_RATE_LIMIT: '1000',
      SIGN_UP_RATE_LIMIT: '1000',
      // One client holds many checkouts at once here (each test takes its own products), and
      // anonymous checkouts take whole products (their share is tested in ipv6-clients.test.ts).
      CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
      CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '100000',
      ANONYMOUS_HOLD_SHARE_PERCENT: '100',
    },
  });
  fake.setWebhook(async (req) => t.app.request(req));
  return {
    scratch,
    database,
    fake,
    t,
    db: t.deps.database.db,
    async close() {
      await t.close();
      await database.close();
      await scratch.drop();
      await fake.close();
    },
  };
}

/** POST /api/checkout as a new client of `t` (or `client`), and a card checkout of `items`. */
export function checkoutRequests(t: () => TestApp) {
  const checkout = (body: unknown, client = t().client()) => client.post('/api/checkout', body);
  const cardCheckout = (items: unknown[], extra: Record<string, unknown> = {}) =>
    checkout({ items, shippingInfo: SHIPPING, paymentMethod: 'card', ...extra });
  return { checkout, cardCheckout };
}
