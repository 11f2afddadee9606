/**
 * Buy Token end to end on the local ledger, paid the way a Solana Pay wallet pays a transaction
 * request: the link read from the purchase's `solana:` URL, the transaction fetched and checked
 * with unmodified @solana/pay (fetchTransaction verifies the treasury's signature), signed with
 * @solana/web3.js 1.x and sent to /local-chain. The SOL and the AELO move in that one transaction;
 * the server records it once, whatever happens around it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fetchTransaction } from '@solana/pay';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, type Connection } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminTokenPurchasesResponse, TokenPurchaseResponse } from '#common/schemas/token-sale';
import { TOKEN_PURCHASE_MESSAGES } from '#common/token-purchase-amount';
import { closeDeps } from '#server/deps';
import { BACKENDS, createScratchDatabase, warnIfPostgresSkipped } from '../helpers/databases';
import { connect, startShop, stopShop, websocketsClosed, type RunningShop } from '../helpers/shop-server';
import { openTestDatabase, TEST_ORIGIN } from '../helpers/test-app';
import { json, signInClients } from './admin-test-kit';

const ENV = { TOKEN_PURCHASE_RATE_LIMIT: '1000' };

async function api<T>(shop: RunningShop, method: string, urlPath: string, body?: unknown) {
  const res = await fetch(`${shop.url}${urlPath}`, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function startPurchase(shop: RunningShop, amountUsd = '100'): Promise<TokenPurchaseResponse> {
  const res = await api<TokenPurchaseResponse>(shop, 'POST', '/api/token-purchases', { amountUsd });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/**
 * The transaction request link of a purchase's `solana:` URL, on the shop's real port (the test
 * app's PUBLIC_URL is TEST_ORIGIN; parseURL takes https links only, and this one is http).
 */
function linkOf(shop: RunningShop, purchase: TokenPurchaseResponse): string {
  expect(purchase.paymentUrl.startsWith('solana:')).toBe(true);
  const link = decodeURIComponent(purchase.paymentUrl.slice('solana:'.length));
  expect(link).toBe(`${TEST_ORIGIN}/api/solana-pay/token-purchases/${purchase.reference}`);
  return link.replace(TEST_ORIGIN, shop.url);
}

/** A wallet with SOL and no AELO account yet. */
async function fundedBuyer(connection: Connection): Promise<Keypair> {
  const buyer = Keypair.generate();
  const signature = await connection.requestAirdrop(buyer.publicKey, 50 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction(signature, 'confirmed');
  return buyer;
}

async function tokenBalance(connection: Connection, mint: PublicKey, owner: PublicKey): Promise<bigint> {
  const account = getAssociatedTokenAddressSync(mint, owner);
  const info = await connection.getTokenAccountBalance(account).catch(() => null);
  return BigInt(info?.value.amount ?? '0');
}

/** Fetches the purchase's transaction as a wallet does, signs it as `buyer` and sends it. */
async function payPurchase(connection: Connection, buyer: Keypair, link: string) {
  const tx = await fetchTransaction(connection, buyer.publicKey, link);
  tx.partialSign(buyer);
  const raw = tx.serialize();
  const signature = await connection.sendRawTransaction(raw);
  await connection.confirmTransaction(signature, 'confirmed');
  return { signature, raw };
}

/** Waits until the shop reads the purchase as completed; answers it. */
function waitForPurchase(shop: RunningShop, reference: string, ms = 10_000) {
  return vi.waitFor(
    async () => {
      const current = (await api<TokenPurchaseResponse>(shop, 'GET', `/api/token-purchases/${reference}`))
        .body;
      expect(current, `purchase ${reference}`).toMatchObject({ status: 'completed' });
      return current;
    },
    { timeout: ms, interval: 100 },
  );
}

async function mintOf(shop: RunningShop): Promise<PublicKey> {
  const info = await api<{ token: { mint: string } }>(shop, 'GET', '/api/shop');
  return new PublicKey(info.body.token.mint);
}

describe('Buy Token on the local ledger', () => {
  let shop: RunningShop;
  let connection: Connection;
  let mint: PublicKey;

  beforeAll(async () => {
    shop = await startShop({ env: ENV });
    connection = connect(shop);
    mint = await mintOf(shop);
  }, 60_000);
  afterAll(() => stopShop(shop));

  it('enforces the amount rules on the server, with the spec messages', async () => {
    const cases: Array<[string, string]> = [
      ['9.99', TOKEN_PURCHASE_MESSAGES.min],
      ['0', TOKEN_PURCHASE_MESSAGES.min],
      ['50000.01', TOKEN_PURCHASE_MESSAGES.max],
      ['12.345', 'Enter an amount in dollars, such as 100 or 49.99'],
      ['1e3', 'Enter an amount in dollars, such as 100 or 49.99'],
      ['-20', 'Enter an amount in dollars, such as 100 or 49.99'],
    ];
    for (const [amountUsd, message] of cases) {
      const res = await api<{ error: { code: string; fields: Record<string, string> } }>(
        shop,
        'POST',
        '/api/token-purchases',
        { amountUsd },
      );
      expect(res.status, amountUsd).toBe(400);
      expect(res.body.error.fields.amountUsd, amountUsd).toBe(message);
    }
    const atMin = await startPurchase(shop, '10');
    const atMax = await startPurchase(shop, '50000');
    expect([atMin.usdCents, atMax.usdCents]).toEqual([1_000, 5_000_000]);
  });

  it('quotes on the server: lamports rounded up, tokens rounded down, 5 minutes', async () => {
    const purchase = await startPurchase(shop, '100');
    const cents = 10_000n;
    const sol = Number(purchase.solPriceUsd);
    const token = Number(purchase.tokenPriceUsd);
    // Within one base unit of the exact fractions, on the right side of each.
    expect(BigInt(purchase.lamports)).toBeGreaterThanOrEqual(
      BigInt(Math.floor((Number(cents) / 100 / sol) * 1e9)),
    );
    expect(BigInt(purchase.lamports) * BigInt(Math.round(sol * 1e6))).toBeGreaterThanOrEqual(
      cents * 10n ** 13n,
    );
    expect(BigInt(purchase.tokenAmount) * BigInt(Math.round(token * 1e6))).toBeLessThanOrEqual(
      cents * 10n ** BigInt(4 + purchase.tokenDecimals),
    );
    expect(Date.parse(purchase.expiresAt) - Date.now()).toBeGreaterThan(4.5 * 60_000);
    expect(purchase.status).toBe('pending');
    expect(linkOf(shop, purchase)).toBe(purchase.transactionUrl.replace(TEST_ORIGIN, shop.url));
  });

  it('a wallet pays the transaction request: SOL to the shop and AELO to the buyer, in one transaction', async () => {
    const buyer = await fundedBuyer(connection);
    const purchase = await startPurchase(shop, '25.50');
    const label = await api<{ label: string }>(
      shop,
      'GET',
      `/api/solana-pay/token-purchases/${purchase.reference}`,
    );
    expect(label.body.label).toBe('Aelo');
    const shopWallet = (await shop.t.deps.chain.requireAccounts()).shopWallet;
    const shopBefore = await connection.getBalance(new PublicKey(shopWallet));

    const { signature } = await payPurchase(connection, buyer, linkOf(shop, purchase));
    const done = await waitForPurchase(shop, purchase.reference);

    expect(done.signature).toBe(signature);
    expect(done.buyer).toBe(buyer.publicKey.toBase58());
    expect(await tokenBalance(connection, mint, buyer.publicKey)).toBe(BigInt(purchase.tokenAmount));
    expect(BigInt(await connection.getBalance(new PublicKey(shopWallet)))).toBe(
      BigInt(shopBefore) + BigInt(purchase.lamports),
    );
    // A completed purchase hands out no more transactions.
    const again = await api<{ error: { code: string } }>(
      shop,
      'POST',
      `/api/solana-pay/token-purchases/${purchase.reference}`,
      { account: buyer.publicKey.toBase58() },
    );
    expect(again.status).toBe(409);
  });

  it('tokens arrive once: the same transaction on every request, a resend refused, the confirmation seen twice', async () => {
    const buyer = await fundedBuyer(connection);
    const other = Keypair.generate();
    const purchase = await startPurchase(shop, '40');
    const ask = (account: string) =>
      api<{ transaction?: string; error?: { message: string } }>(
        shop,
        'POST',
        `/api/solana-pay/token-purchases/${purchase.reference}`,
        { account },
      );
    const [first, second] = await Promise.all([
      ask(buyer.publicKey.toBase58()),
      ask(buyer.publicKey.toBase58()),
    ]);
    expect(first.body.transaction).toBeDefined();
    expect(second.body.transaction).toBe(first.body.transaction);
    // While that transaction can land, no other wallet gets one (two could both be paid).
    const stranger = await ask(other.publicKey.toBase58());
    expect(stranger.status).toBe(409);
    expect(stranger.body.error?.message).toMatch(/another wallet/);

    const { raw } = await payPurchase(connection, buyer, linkOf(shop, purchase));
    await expect(connection.sendRawTransaction(raw)).rejects.toThrow();
    // The watcher, the live check and a manual check all see it: one completion.
    await Promise.all([
      shop.t.deps.tokenSales.check(purchase.reference),
      shop.t.deps.tokenSales.check(purchase.reference),
      shop.t.deps.tokenSales.watch(),
    ]);
    await waitForPurchase(shop, purchase.reference);
    expect(await tokenBalance(connection, mint, buyer.publicKey)).toBe(BigInt(purchase.tokenAmount));
    const rows = await shop.t.deps.database.db
      .selectFrom('token_purchases')
      .select(['status', 'transaction_signature'])
      .where('reference', '=', purchase.reference)
      .execute();
    expect(rows).toEqual([{ status: 'completed', transaction_signature: expect.any(String) }]);
  });

  it('refuses an account that is not a Solana address, and unpaid large purchases block nobody', async () => {
    const purchase = await startPurchase(shop, '10');
    for (const account of ['1111111111111111111111111111111111111111111', 'not-an-address']) {
      const res = await api<{ error: { code: string } }>(
        shop,
        'POST',
        `/api/solana-pay/token-purchases/${purchase.reference}`,
        { account },
      );
      expect(res.status, account).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    // More than the whole treasury started and never paid (nothing is reserved: the transaction is
    // atomic, so a treasury short of tokens fails it whole): someone else still buys.
    for (let i = 0; i < 5; i++) await startPurchase(shop, '50000');
    const buyer = await fundedBuyer(connection);
    const small = await startPurchase(shop, '10');
    await payPurchase(connection, buyer, linkOf(shop, small));
    await waitForPurchase(shop, small.reference);
  });

  it('a purchase past its 5 minutes with nothing handed out expires and hands out nothing', async () => {
    const purchase = await startPurchase(shop, '10');
    await shop.t.deps.tokenSales.watch(new Date(Date.now() + 6 * 60_000));
    const row = await shop.t.deps.database.db
      .selectFrom('token_purchases')
      .select('status')
      .where('reference', '=', purchase.reference)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    const late = await api<{ error: { message: string } }>(
      shop,
      'POST',
      `/api/solana-pay/token-purchases/${purchase.reference}`,
      { account: Keypair.generate().publicKey.toBase58() },
    );
    expect(late.status).toBe(409);
    const status = await api<TokenPurchaseResponse>(
      shop,
      'GET',
      `/api/token-purchases/${purchase.reference}`,
    );
    expect(status.body.status).toBe('expired');
  });

  it('is visible to the admin, and only to the admin', async () => {
    const anonymous = await api<{ error: { code: string } }>(shop, 'GET', '/api/admin/token-purchases');
    expect(anonymous.status).toBe(401);
    const { admin, customer } = await signInClients(shop.t);
    await json(await customer.get('/api/admin/token-purchases'), 403);
    const body = await json<AdminTokenPurchasesResponse>(
      await admin.get('/api/admin/token-purchases?status=completed'),
      200,
    );
    expect(body.purchases.items.length).toBeGreaterThanOrEqual(2);
    expect(body.purchases.items.every((p) => p.status === 'completed' && p.signature && p.buyer)).toBe(true);
    expect(body.stats.completed).toBe(body.purchases.total);
    expect(body.stats.usdCents).toBe(body.purchases.items.reduce((sum, p) => sum + p.usdCents, 0));
  });
});

describe('Buy Token across a crash and across instances', () => {
  it('the server dies after handing out the transaction and again after it landed: tokens arrive once', async () => {
    const scratch = await createScratchDatabase('pglite');
    const database = await openTestDatabase(scratch);
    const first = await startShop({ database, scratch, watcher: false, env: ENV });
    const dataDir = first.t.dataDir;
    const connection = connect(first);
    const mint = await mintOf(first);
    const buyer = await fundedBuyer(connection);
    const purchase = await startPurchase(first, '60');
    const handedOut = await fetchTransaction(connection, buyer.publicKey, linkOf(first, purchase));
    const stop = async (shop: RunningShop) => {
      await websocketsClosed(shop);
      shop.detach();
      await new Promise<void>((resolve) => shop.server.close(() => resolve()));
      // Not t.close(): that would delete the data directory the ledger lives in.
      await closeDeps(shop.t.deps, { keepDatabase: true });
    };
    await stop(first);

    // Restarted: the purchase hands out the very same transaction (the treasury signs no second one).
    const second = await startShop({ database, scratch, watcher: false, env: { ...ENV, DATA_DIR: dataDir } });
    const connection2 = connect(second);
    const again = await fetchTransaction(connection2, buyer.publicKey, linkOf(second, purchase));
    expect(again.serializeMessage().equals(handedOut.serializeMessage())).toBe(true);
    handedOut.partialSign(buyer);
    const signature = await connection2.sendRawTransaction(handedOut.serialize());
    await connection2.confirmTransaction(signature, 'confirmed');
    // It dies again before anything recorded the landed transaction (no watcher ran).
    await stop(second);

    const third = await startShop({ database, scratch, env: { ...ENV, DATA_DIR: dataDir } });
    try {
      const done = await waitForPurchase(third, purchase.reference);
      expect(done.signature).toBe(signature);
      expect(await tokenBalance(connect(third), mint, buyer.publicKey)).toBe(BigInt(purchase.tokenAmount));
    } finally {
      await stopShop(third);
      await database.close();
      await scratch.drop();
    }
  }, 90_000);

  describe.each(BACKENDS.filter((b) => b === 'postgres'))('two instances on one %s', (backend) => {
    it('hand out one transaction and complete the purchase once', async () => {
      const scratch = await createScratchDatabase(backend);
      const host = await startShop({ backend, scratch, env: ENV });
      const mint = await mintOf(host);
      const chain = await host.t.deps.localChain!.get();
      const keys = JSON.parse(
        readFileSync(path.join(host.t.dataDir, 'local-ledger', 'keys.json'), 'utf8'),
      ) as {
        treasury: number[];
      };
      const other = await startShop({
        backend,
        scratch,
        env: {
          ...ENV,
          SOLANA_RPC_URL: `${host.url}/local-chain`,
          TOKEN_MINT: mint.toBase58(),
          SHOP_WALLET: chain.setup.shopWallet,
          TREASURY_SECRET_KEY: JSON.stringify(keys.treasury),
          PAYMENT_WATCH_INTERVAL_MS: '100',
        },
      });
      try {
        const connection = connect(host);
        const buyer = await fundedBuyer(connection);
        // Priced on the host (the other instance has no market feed here).
        const purchase = await startPurchase(host, '75');
        const link = (shop: RunningShop) =>
          `${shop.url}/api/solana-pay/token-purchases/${purchase.reference}`;
        const asked = await Promise.all(
          [host, other, host, other].map((shop) =>
            fetchTransaction(connection, buyer.publicKey, link(shop)).then((tx) =>
              tx.serializeMessage().toString('base64'),
            ),
          ),
        );
        expect(new Set(asked).size).toBe(1);
        await payPurchase(connection, buyer, link(other));
        await Promise.all([
          ...Array.from({ length: 3 }, () => host.t.deps.tokenSales.check(purchase.reference)),
          ...Array.from({ length: 3 }, () => other.t.deps.tokenSales.check(purchase.reference)),
        ]);
        await waitForPurchase(other, purchase.reference);
        expect(await tokenBalance(connection, mint, buyer.publicKey)).toBe(BigInt(purchase.tokenAmount));
      } finally {
        await stopShop(other);
        await stopShop(host);
        await scratch.drop();
      }
    }, 90_000);
  });
  warnIfPostgresSkipped();
});
