/**
 * Crash faults on the embedded database (issue 15). `npm start` runs on PGlite: PostgreSQL compiled
 * to WebAssembly inside the server's own process, its files under DATA_DIR/pglite. A SIGKILL (the
 * kernel's OOM killer, a power cut of the process) takes the database down with the server, in the
 * middle of its transactions and its writes to disk. faults-crash.test.ts runs every crash point on
 * PostgreSQL, where it reads the database while the server runs; PGlite has one owner at a time, so
 * here the test reads it through the API and, with the server stopped, opens its files itself.
 *
 * One card payment, killed inside its confirming transaction (the order placed, not committed) and
 * then just after its commit, while an admin's edits of the product are being written, ends paid
 * exactly once with its stock taken once, and every edit the server answered is still there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { openDatabase, type Database } from '#server/db/client';
import { migrate } from '#server/db/migrate';
import { createLogger } from '#server/lib/logger';
import { migrationsDir } from '#server/lib/paths';
import { SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import type { FakeStripeServer } from '../fakes/stripe-server';
import { findFreePort } from '../helpers/browser';
import {
  bundleServer,
  CRASH_ADMIN,
  crashShopEnv,
  endOf,
  signIn,
  spawnShop,
  startForwardingStripe,
  stopShopProcess,
  type ShopProcess,
} from '../helpers/shop-process';

const STOCK = 5;

let entry = '';
let removeBundle: () => void = () => undefined;
let baseUrl = '';
let dataDir = '';
let stripe: FakeStripeServer;
let productId = '';
/** The raw bodies of the Stripe events sent, to send again as Stripe's retries do. */
const webhookPayloads: string[] = [];

const openPglite = async (): Promise<Database> =>
  openDatabase({
    databaseUrl: undefined,
    pgliteDir: path.join(dataDir, 'pglite'),
    logger: createLogger('silent'),
  });

function startServer(point?: 'payments:order-placed' | 'payments:after-confirm'): Promise<ShopProcess> {
  return spawnShop({
    entry,
    baseUrl,
    point,
    env: crashShopEnv(dataDir, stripe),
  });
}

/**
 * An admin renaming the product over and over until the server dies: the last title the server
 * answered 200 for, and the last one sent.
 */
function keepRenaming(cookie: string) {
  const written = { answered: 0, sent: 0 };
  const done = (async () => {
    for (;;) {
      const n = written.sent + 1;
      written.sent = n;
      const res = await fetch(`${baseUrl}/api/admin/products/${productId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
        body: JSON.stringify({ title: `Renamed ${n}` }),
      }).catch(() => undefined);
      if (!res) return written;
      if (res.status === 200) written.answered = n;
      else expect(res.status, await res.text()).toBe(200);
    }
  })();
  return { written, done };
}

describe('the server on PGlite (the default database) killed with SIGKILL', () => {
  beforeAll(async () => {
    ({ entry, remove: removeBundle } = await bundleServer('faults-crash-pglite'));
    baseUrl = `http://127.0.0.1:${await findFreePort()}`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'shop-faults-pglite-'));
    // The shop's own database files, made and stocked before its first start.
    const database = await openPglite();
    await migrate(database, migrationsDir, createLogger('silent'));
    productId = (await createProduct(database.db, { quantity: STOCK, priceCents: 4_500 })).id;
    await database.close();
    stripe = await startForwardingStripe(baseUrl, webhookPayloads);
  }, 120_000);

  afterAll(async () => {
    await stripe?.close();
    removeBundle();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('pays a card order exactly once and keeps every answered write, killed inside and after its transaction', async () => {
    let shop = await startServer('payments:order-placed');
    let renaming: ReturnType<typeof keepRenaming> | undefined;
    try {
      renaming = keepRenaming(await signIn(baseUrl, CRASH_ADMIN));
      await expect
        .poll(() => renaming!.written.answered, {
          timeout: 30_000,
          interval: 100,
          message: 'renames answered',
        })
        .toBeGreaterThanOrEqual(3);

      const checkout = await fetch(`${baseUrl}/api/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({
          items: [{ productId, size: 'M', color: 'Black', quantity: 1 }],
          shippingInfo: SHIPPING_INFO,
          paymentMethod: 'card',
        }),
      });
      expect(checkout.status).toBe(201);
      const { reference } = (await checkout.json()) as { reference: string };
      const session = stripe.sessions.find((s) => s.session.metadata.reference === reference)!;
      expect(session).toBeDefined();

      // Paid on the hosted page: the webhook's transaction places the order, and the process dies
      // before it commits, with the admin's renames in flight.
      await stripe.completeSession(session.session.id).catch(() => undefined);
      expect(await endOf(shop), shop.logs()).toBe('SIGKILL');
      const { written } = renaming;
      await renaming.done;
      expect(written.answered).toBeGreaterThanOrEqual(3);

      // Started again on the same files: the database recovers by itself. Stripe got no answer and
      // sends the event again; this time the process dies right after the confirmation commits.
      const payload = webhookPayloads.at(-1)!;
      shop = await startServer('payments:after-confirm');
      await stripe.sendEvent(payload).catch(() => undefined);
      expect(await endOf(shop), shop.logs()).toBe('SIGKILL');

      // And once more, as Stripe retries until it gets a 2xx; a duplicate changes nothing.
      shop = await startServer();
      expect((await stripe.sendEvent(payload)).status).toBe(200);
      expect((await stripe.sendEvent(payload)).status).toBe(200);
      const status = (await (
        await fetch(`${baseUrl}/api/payments/${reference}/status`)
      ).json()) as PaymentStatusResponse;
      expect(status.status).toBe('completed');
      expect(status.order_id).toEqual(expect.any(String));
      const product = (await (await fetch(`${baseUrl}/api/products/${productId}`)).json()) as {
        quantity: number;
      };
      expect(product.quantity, 'stock taken once').toBe(STOCK - 1);
      await stopShopProcess(shop);

      // The files themselves, opened by the test with the server stopped.
      const database = await openPglite();
      try {
        await database.withRawConnection(async (exec) => {
          const payments = await exec('select id, status from payments where reference = $1', [reference]);
          expect(payments).toEqual([{ id: expect.any(String), status: 'confirmed' }]);
          const paymentId = payments[0]!.id;
          expect(await exec('select id from orders where payment_id = $1', [paymentId])).toHaveLength(1);
          const held = await exec(
            'select id from stock_reservations where payment_id = $1 and released_at is null and consumed_at is null',
            [paymentId],
          );
          expect(held, 'nothing left on hold').toHaveLength(0);
          const [row] = await exec('select title, quantity from products where id = $1', [productId]);
          expect(row!.quantity).toBe(STOCK - 1);
          // Every rename the server answered survived the kill (one sent but unanswered may have too).
          const renamed = Number(/^Renamed (\d+)$/.exec(String(row!.title))?.[1]);
          expect(renamed, String(row!.title)).toBeGreaterThanOrEqual(written.answered);
          expect(renamed, String(row!.title)).toBeLessThanOrEqual(written.sent);
        });
      } finally {
        await database.close();
      }
    } finally {
      await stopShopProcess(shop);
    }
  }, 300_000);
});
