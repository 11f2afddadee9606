/**
 * One reference watcher (src/server/modules/chain/reference-watch.ts): a reference is public (it
 * is in the QR code), so anyone can name it in any number of transactions after the real payment.
 * Its history is paged back with `before` to the oldest transaction not yet handled and handed out
 * oldest first, so 30 (or 1,000) later transactions never hide the payment: a crypto checkout and
 * a Buy Token paid and then spammed by a stranger (unmodified @solana/web3.js on /local-chain)
 * still complete. Before, the watchers read the newest 25 signatures only.
 */
import { createTransfer, fetchTransaction, parseURL, type TransferRequestURL } from '@solana/pay';
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  sendAndConfirmTransaction,
  SystemProgram,
  Transaction,
  type Connection,
} from '@solana/web3.js';
import { createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import type { TokenPurchaseResponse } from '#common/schemas/token-sale';
import { startPaymentWatcher } from '#server/jobs/payment-watcher';
import { transactionsNaming } from '#server/modules/chain/reference-watch';
import { checkout } from '../factories/checkout';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { connect, startShop, stopShop, type RunningShop } from '../helpers/shop-server';
import { TEST_ORIGIN } from '../helpers/test-app';

const ENV = {
  CHECKOUT_RATE_LIMIT: '1000',
  CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
  CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '1000',
  TOKEN_PURCHASE_RATE_LIMIT: '1000',
};

async function api<T>(shop: RunningShop, method: string, path: string, body?: unknown) {
  const res = await fetch(`${shop.url}${path}`, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function funded(connection: Connection, sol = 10): Promise<Keypair> {
  const wallet = Keypair.generate();
  await connection.confirmTransaction(
    await connection.requestAirdrop(wallet.publicKey, sol * LAMPORTS_PER_SOL),
    'confirmed',
  );
  return wallet;
}

/**
 * `count` transactions by `stranger` naming `reference`: each moves a few lamports from the
 * stranger to itself (nothing for the shop), the reference added to the transfer's accounts as a
 * Solana Pay wallet adds it. Returns their signatures, in the order they landed.
 */
async function spam(connection: Connection, stranger: Keypair, reference: string, count: number) {
  const signatures: string[] = [];
  for (let i = 0; i < count; i++) {
    const ix = SystemProgram.transfer({
      fromPubkey: stranger.publicKey,
      toPubkey: stranger.publicKey,
      lamports: i + 1,
    });
    ix.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
    signatures.push(
      await sendAndConfirmTransaction(connection, new Transaction().add(ix), [stranger], {
        commitment: 'confirmed',
      }),
    );
  }
  return signatures;
}

/** A transaction naming `reference` that lands and fails (more lamports than the sender has). */
async function failed(connection: Connection, sender: Keypair, reference: string): Promise<string> {
  const ix = SystemProgram.transfer({
    fromPubkey: sender.publicKey,
    toPubkey: Keypair.generate().publicKey,
    lamports: 1_000 * LAMPORTS_PER_SOL,
  });
  ix.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
  const signature = await connection.sendTransaction(new Transaction().add(ix), [sender], {
    skipPreflight: true,
  });
  const { value } = await connection.confirmTransaction(signature, 'confirmed');
  expect(value.err).not.toBeNull();
  return signature;
}

describe('transactionsNaming on the local ledger', () => {
  let shop: RunningShop;
  let connection: Connection;
  /** The shop's RPC, counting the signature pages asked for. */
  let pages: Array<{ before?: string; limit?: number }>;
  let rpc: ReturnType<typeof createSolanaRpcFromTransport>;

  beforeAll(async () => {
    shop = await startShop({ watcher: false, env: ENV });
    connection = connect(shop);
    const transport = shop.t.deps.chain.transport;
    pages = [];
    const counting = (async (request: Parameters<RpcTransport>[0]) => {
      const payload = request.payload as {
        method: string;
        params: [string, { before?: string; limit?: number }];
      };
      if (payload.method === 'getSignaturesForAddress') pages.push(payload.params[1]);
      return transport(request);
    }) as RpcTransport;
    rpc = createSolanaRpcFromTransport(counting);
  }, 60_000);
  afterAll(() => stopShop(shop));

  async function collect(reference: string, options?: Parameters<typeof transactionsNaming>[2]) {
    pages.length = 0;
    const seen: string[] = [];
    for await (const entry of transactionsNaming(rpc, reference, options)) {
      expect(entry.transaction.meta?.err ?? null).toBeNull();
      expect(entry.slot).toBeGreaterThan(0n);
      expect(entry.blockTime).not.toBeNull();
      expect(entry.transaction.transaction.signatures[0]).toBe(entry.signature);
      seen.push(entry.signature);
    }
    return seen;
  }

  it('pages the whole history back with `before` and hands it out oldest first, failed ones left out', async () => {
    const stranger = await funded(connection);
    const reference = Keypair.generate().publicKey.toBase58();
    const first = await spam(connection, stranger, reference, 15);
    const bad = await failed(connection, stranger, reference);
    const second = await spam(connection, stranger, reference, 15);

    const seen = await collect(reference, { pageSize: 7 });
    expect(seen).toEqual([...first, ...second]);
    expect(seen).not.toContain(bad);
    // 31 signatures, 7 a page: 5 pages, each after the last one's oldest.
    expect(pages.map((p) => p.limit)).toEqual([7, 7, 7, 7, 7]);
    expect(pages[0]!.before).toBeUndefined();
    expect(pages.slice(1).every((p) => typeof p.before === 'string')).toBe(true);

    // The default page is a node's largest (1000): one page here.
    expect(await collect(reference)).toEqual([...first, ...second]);
    expect(pages.map((p) => p.limit)).toEqual([1000]);
  });

  it('leaves out the signatures already handled, and still pages the whole history', async () => {
    const stranger = await funded(connection);
    const reference = Keypair.generate().publicKey.toBase58();
    const signatures = await spam(connection, stranger, reference, 20);
    // Handled: the oldest twelve, and one newer (a transaction handled for another reference it names).
    const handled = new Set([...signatures.slice(0, 12), signatures[15]!]);
    const seen = await collect(reference, {
      pageSize: 5,
      isKnown: (signature) => Promise.resolve(handled.has(signature)),
    });
    expect(seen).toEqual(signatures.filter((s) => !handled.has(s)));
    // 20 signatures, 5 a page: four full pages and the empty one that ends the history.
    expect(pages).toHaveLength(5);
  });

  it('hands out nothing for a reference nobody named', async () => {
    expect(await collect(Keypair.generate().publicKey.toBase58())).toEqual([]);
  });
});

describe.each(BACKENDS)('a payment named by 30 later transactions is still found (%s)', (backend) => {
  let shop: RunningShop;
  let connection: Connection;
  let shopper: Keypair;
  let stranger: Keypair;

  beforeAll(async () => {
    // No watcher yet: the payment and the spam both land before anything looks for the payment.
    shop = await startShop({ backend, watcher: false, env: ENV });
    connection = connect(shop);
    const wallet = await api<{ secretKey: number[] }>(shop, 'GET', '/api/chain/demo-wallet');
    shopper = Keypair.fromSecretKey(Uint8Array.from(wallet.body.secretKey));
    stranger = await funded(connection);
  }, 60_000);
  afterAll(() => stopShop(shop));

  /** Runs the payment watcher until `found` stops throwing (vi.waitFor); answers what it found. */
  async function watchUntil<T>(found: () => Promise<T>, ms = 15_000): Promise<T> {
    const watcher = startPaymentWatcher(shop.t.deps);
    try {
      return await vi.waitFor(found, { timeout: ms, interval: 100 });
    } finally {
      await watcher.stop();
    }
  }

  async function solCheckout() {
    const started = await checkout(shop, {
      paymentMethod: 'sol',
      product: { priceCents: 2_000, quantity: 5 },
    });
    return { reference: started.reference, paymentUrl: started.crypto!.paymentUrl };
  }

  /** Pays a transfer request URL as a Solana Pay wallet does (optionally naming more references). */
  async function pay(url: string, references?: string[]): Promise<string> {
    const request = parseURL(url) as TransferRequestURL;
    const payment = await createTransfer(connection, shopper.publicKey, {
      recipient: request.recipient,
      amount: request.amount!,
      reference: references ? references.map((r) => new PublicKey(r)) : request.reference!,
    });
    return sendAndConfirmTransaction(connection, payment, [shopper], { commitment: 'confirmed' });
  }

  async function completedOrder(reference: string) {
    const done = await watchUntil(async () => {
      const status = (await api<PaymentStatusResponse>(shop, 'GET', `/api/payments/${reference}/status`))
        .body;
      expect(status, `payment ${reference}`).toMatchObject({ status: 'completed' });
      return status;
    });
    const orders = await shop.t.deps.database.db
      .selectFrom('orders')
      .innerJoin('payments', 'payments.id', 'orders.payment_id')
      .select(['orders.status', 'orders.payment_method', 'orders.transaction_signature'])
      .where('payments.reference', '=', reference)
      .execute();
    return { done, orders };
  }

  it('a SOL checkout paid, then 30 transactions naming its reference: the order is made', async () => {
    const started = await solCheckout();
    // The shopper pays the Solana Pay link as a wallet does...
    const signature = await pay(started.paymentUrl);
    // ...and a stranger names the public reference 30 times after it.
    await spam(connection, stranger, started.reference, 30);

    const { done, orders } = await completedOrder(started.reference);
    expect(done.transaction_signature).toBe(signature);
    expect(orders).toEqual([{ status: 'pending', payment_method: 'sol', transaction_signature: signature }]);
  });

  it("a later transfer that pays another checkout and names this one too hides nothing of this one's", async () => {
    const first = await solCheckout();
    const second = await solCheckout();
    // The second checkout is paid; then a transfer pays the first and names both references.
    const paid = await pay(second.paymentUrl);
    const other = await pay(first.paymentUrl, [first.reference, second.reference]);
    // The first is looked at first: that transfer is recorded for it, and it pays it.
    await shop.t.deps.cryptoPayments.check(first.reference);
    expect((await completedOrder(first.reference)).done.transaction_signature).toBe(other);

    const { done, orders } = await completedOrder(second.reference);
    expect(done.transaction_signature).toBe(paid);
    expect(orders).toEqual([{ status: 'pending', payment_method: 'sol', transaction_signature: paid }]);
  });

  it('a Buy Token paid, then 30 transactions naming its reference: the purchase completes', async () => {
    const buyer = await funded(connection, 50);
    const created = await api<TokenPurchaseResponse>(shop, 'POST', '/api/token-purchases', {
      amountUsd: '25',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const purchase = created.body;
    const link = purchase.transactionUrl.replace(TEST_ORIGIN, shop.url);
    const tx = await fetchTransaction(connection, buyer.publicKey, link);
    tx.partialSign(buyer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction(signature, 'confirmed');
    await spam(connection, stranger, purchase.reference, 30);

    const done = await watchUntil(async () => {
      const current = (
        await api<TokenPurchaseResponse>(shop, 'GET', `/api/token-purchases/${purchase.reference}`)
      ).body;
      expect(current, `purchase ${purchase.reference}`).toMatchObject({ status: 'completed' });
      return current;
    });
    expect(done.signature).toBe(signature);
    expect(done.buyer).toBe(buyer.publicKey.toBase58());
  });
});

warnIfPostgresSkipped();
