/**
 * Refunds under SIGKILL: the server (its own process, on PostgreSQL, with its local ledger) is
 * killed at each refund crash point, card and crypto, and started again; every refund ends carried
 * out exactly once: one Stripe refund per refund (the same idempotency key after the restart), one
 * transfer back per refund (the payer's balance grows by exactly the refunded lamports).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '#server/db/client';
import type { CrashPointName } from '#server/lib/crash-point';
import { createLogger } from '#server/lib/logger';
import { checkout as startCheckout } from '../factories/checkout';
import type { FakeStripeServer } from '../fakes/stripe-server';
import { findFreePort } from '../helpers/browser';
import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { createScratchDatabase, TEST_DATABASE_URL, type ScratchDatabase } from '../helpers/databases';
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

let entry = '';
let removeBundle: () => void = () => undefined;
let baseUrl = '';
let dataDir = '';
let scratch: ScratchDatabase;
let database: Database;
let stripe: FakeStripeServer;
const webhookPayloads: string[] = [];

function startServer(point?: CrashPointName): Promise<ShopProcess> {
  return spawnShop({
    entry,
    baseUrl,
    point,
    env: { ...crashShopEnv(dataDir, stripe), DATABASE_URL: scratch.url!, PAYMENT_WATCH_INTERVAL_MS: '300' },
  });
}

async function post(route: string, body: unknown, cookie = ''): Promise<Response | undefined> {
  return fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  }).catch(() => undefined); // the server may die before it answers
}

const db = () => database.db;
/** How long the world is given to go on after a restart (vi.waitFor / expect.poll). */
const POLL = { timeout: 30_000, interval: 100 };
const refundsOf = (orderId: string) =>
  db().selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
/** A killed instance's lease runs out (30 s in the shop): here at once. */
const leaseRunsOut = () =>
  db()
    .updateTable('refunds')
    .set({ lease_until: new Date(Date.now() - 1_000) })
    .execute();

const checkout = (paymentMethod: 'card' | 'sol') =>
  startCheckout(
    { url: baseUrl, origin: baseUrl, db: db() },
    { paymentMethod, product: { priceCents: 2_000, quantity: 5 } },
  );

async function orderOf(reference: string): Promise<{ id: string; paymentIntent: string | null }> {
  const row = await vi.waitFor(
    () =>
      db()
        .selectFrom('orders')
        .innerJoin('payments', 'payments.id', 'orders.payment_id')
        .select(['orders.id', 'payments.stripe_payment_intent_id'])
        .where('payments.reference', '=', reference)
        .executeTakeFirstOrThrow(),
    POLL,
  );
  return { id: row.id, paymentIntent: row.stripe_payment_intent_id };
}

async function expectKilled(shop: ShopProcess): Promise<void> {
  expect(await endOf(shop), `CRASH_AT=${shop.point}\n${shop.logs()}`).toBe('SIGKILL');
}

if (!TEST_DATABASE_URL) {
  console.warn(
    'SKIPPED: refund crash tests (TEST_DATABASE_URL is not set; they run the server on PostgreSQL)',
  );
}

describe.skipIf(!TEST_DATABASE_URL)('refunds under SIGKILL', () => {
  beforeAll(async () => {
    ({ entry, remove: removeBundle } = await bundleServer('refunds-crash'));
    baseUrl = `http://127.0.0.1:${await findFreePort()}`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'shop-refunds-crash-'));
    scratch = await createScratchDatabase('postgres');
    database = await openDatabase({
      databaseUrl: scratch.url,
      pgliteDir: '',
      logger: createLogger('silent'),
    });
    stripe = await startForwardingStripe(baseUrl, webhookPayloads);
  }, 120_000);

  afterAll(async () => {
    await stripe?.close();
    await database?.close();
    await scratch?.drop();
    removeBundle();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('carries out each card and SOL refund exactly once, killed after recording and after sending', async () => {
    let shop = await startServer();
    try {
      // A card order and a SOL order, paid.
      const card = await checkout('card');
      const session = stripe.sessions.find((s) => s.session.metadata.reference === card.reference)!;
      await stripe.completeSession(session.session.id);
      const cardOrder = await orderOf(card.reference);

      // web3.js over HTTP only (no websocket subscriptions to a server about to be killed).
      const connection = new Connection(`${baseUrl}/local-chain`, 'confirmed');
      const payer = Keypair.generate();
      await connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
      await expect
        .poll(() => connection.getBalance(payer.publicKey), { ...POLL, message: 'the airdrop' })
        .toBeGreaterThan(0);
      const sol = await checkout('sol');
      const request = parseURL(sol.crypto!.paymentUrl) as TransferRequestURL;
      const tx = await createTransfer(connection, payer.publicKey, {
        recipient: request.recipient,
        amount: request.amount!,
        reference: request.reference!,
      });
      tx.feePayer = payer.publicKey;
      tx.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
      tx.sign(payer);
      await connection.sendRawTransaction(tx.serialize());
      const solOrder = await orderOf(sol.reference);
      const paid = BigInt(sol.crypto!.amount);
      const balance = async () => BigInt(await connection.getBalance(payer.publicKey));
      const before = await balance();
      await stopShopProcess(shop);

      // Card, killed before Stripe is asked; then killed after Stripe answered, before it is recorded.
      shop = await startServer('refunds:after-record');
      let cookie = await signIn(baseUrl, CRASH_ADMIN);
      await post(`/api/admin/orders/${cardOrder.id}/refunds`, { reason: 'Crash: card' }, cookie);
      await expectKilled(shop);
      const [cardRefund] = await refundsOf(cardOrder.id);
      expect(cardRefund).toMatchObject({ status: 'pending', amount_cents: 2_499 });
      expect(stripe.refunds).toHaveLength(0);

      await leaseRunsOut();
      shop = await startServer('refunds:after-send');
      await expectKilled(shop);
      expect(stripe.refunds).toHaveLength(1);
      expect((await refundsOf(cardOrder.id))[0]).toMatchObject({ status: 'pending', stripe_refund_id: null });

      await leaseRunsOut();
      shop = await startServer();
      await expect
        .poll(async () => (await refundsOf(cardOrder.id))[0]?.status, {
          ...POLL,
          message: 'the card refund recorded',
        })
        .toBe('succeeded');
      expect(stripe.refunds).toHaveLength(1);
      expect(stripe.refunds[0]).toMatchObject({ idempotencyKey: `refund-${cardRefund!.id}` });
      expect((await refundsOf(cardOrder.id))[0]!.stripe_refund_id).toBe(stripe.refunds[0]!.refund.id);
      expect(stripe.refundableOf(cardOrder.paymentIntent!)).toBe(0);
      await stopShopProcess(shop);

      // SOL, killed after its signed transaction was recorded, before it was sent.
      shop = await startServer('refunds:after-record');
      cookie = await signIn(baseUrl, CRASH_ADMIN);
      await post(
        `/api/admin/orders/${solOrder.id}/refunds`,
        { amountCents: 1_000, reason: 'Crash: sol 1' },
        cookie,
      );
      await expectKilled(shop);
      const [first] = await refundsOf(solOrder.id);
      expect(first).toMatchObject({ status: 'sent', transaction_signature: expect.any(String) });
      const part = BigInt(first!.crypto_amount!);

      // Started again: the same bytes are sent (it had not landed); then a second refund of the
      // rest, killed after it was sent.
      await leaseRunsOut();
      shop = await startServer('refunds:after-send');
      await expect
        .poll(async () => (await refundsOf(solOrder.id))[0]?.status, {
          ...POLL,
          message: 'the first SOL refund landed',
        })
        .toBe('succeeded');
      expect((await refundsOf(solOrder.id))[0]!.transaction_signature).toBe(first!.transaction_signature);
      cookie = await signIn(baseUrl, CRASH_ADMIN);
      await post(`/api/admin/orders/${solOrder.id}/refunds`, { reason: 'Crash: sol 2' }, cookie);
      await expectKilled(shop);
      const second = (await refundsOf(solOrder.id))[1]!;
      expect(second.status).toBe('sent');

      await leaseRunsOut();
      shop = await startServer();
      await expect
        .poll(async () => (await refundsOf(solOrder.id))[1]?.status, {
          ...POLL,
          message: 'the second SOL refund recorded',
        })
        .toBe('succeeded');
      expect((await refundsOf(solOrder.id))[1]!.transaction_signature).toBe(second.transaction_signature);
      // Exactly what was paid came back: each transfer landed once.
      expect(part + BigInt(second.crypto_amount!)).toBe(paid);
      expect(await balance()).toBe(before + paid);
    } finally {
      await stopShopProcess(shop);
    }
  }, 300_000);
});
