/**
 * A shop whose token is a Token-2022 mint: every token instruction and token account goes through
 * the mint's own program. Instance A hosts the local ledger; the test makes a Token-2022 mint there
 * with unmodified @solana/spl-token (the shop's and the treasury's token accounts, a buyer holding
 * the token), and instance B runs the shop on it (SOLANA_RPC_URL=<A>/local-chain, TOKEN_MINT,
 * SHOP_WALLET, TREASURY_SECRET_KEY, prices from the market feeds' stand-in). An AELO checkout is
 * paid from its Solana Pay transfer request and from the server's transaction request, and a Buy
 * Token completes, each ending in what the shopper sees: a completed payment and its order.
 */
import { fetchTransaction, parseURL, type TransferRequestURL } from '@solana/pay';
import {
  createMint,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  getMint,
  getOrCreateAssociatedTokenAccount,
  mintTo,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import {
  Keypair,
  LAMPORTS_PER_SOL,
  sendAndConfirmTransaction,
  Transaction,
  type Connection,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TokenPurchaseResponse } from '#common/schemas/token-sale';
import { startFakeMarketFeeds, type FakeMarketFeeds } from '../fakes/market-feeds';
import { checkout } from '../factories/checkout';
import { waitForStatus } from '../helpers/crypto-checkout';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { connect, startShop, stopShop, type RunningShop } from '../helpers/shop-server';
import { TEST_ORIGIN } from '../helpers/test-app';

const ENV = {
  CHECKOUT_RATE_LIMIT: '1000',
  CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
  CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '1000',
  TOKEN_PURCHASE_RATE_LIMIT: '1000',
};
const DECIMALS = 6;
const UNIT = 10n ** BigInt(DECIMALS);

async function api<T>(shop: RunningShop, method: string, path: string, body?: unknown) {
  const res = await fetch(`${shop.url}${path}`, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function funded(connection: Connection, sol: number): Promise<Keypair> {
  const wallet = Keypair.generate();
  await connection.confirmTransaction(
    await connection.requestAirdrop(wallet.publicKey, sol * LAMPORTS_PER_SOL),
    'confirmed',
  );
  return wallet;
}

describe.each(BACKENDS)('a shop on a Token-2022 mint (%s)', (backend) => {
  let host: RunningShop;
  let shop: RunningShop;
  let feeds: FakeMarketFeeds;
  let connection: Connection;
  let mint: PublicKey;
  let shopWallet: Keypair;
  let buyer: Keypair;

  const tokenAccount = (owner: PublicKey) =>
    getAssociatedTokenAddressSync(mint, owner, false, TOKEN_2022_PROGRAM_ID);
  const balance = async (owner: PublicKey) =>
    BigInt((await connection.getTokenAccountBalance(tokenAccount(owner), 'confirmed')).value.amount);

  beforeAll(async () => {
    host = await startShop({ watcher: false, env: ENV });
    connection = connect(host);
    const authority = await funded(connection, 100);
    mint = await createMint(
      connection,
      authority,
      authority.publicKey,
      null,
      DECIMALS,
      Keypair.generate(),
      { commitment: 'confirmed' },
      TOKEN_2022_PROGRAM_ID,
    );
    const holder = async (owner: PublicKey, tokens: bigint) => {
      const account = await getOrCreateAssociatedTokenAccount(
        connection,
        authority,
        mint,
        owner,
        false,
        'confirmed',
        { commitment: 'confirmed' },
        TOKEN_2022_PROGRAM_ID,
      );
      if (tokens > 0n) {
        await mintTo(
          connection,
          authority,
          mint,
          account.address,
          authority,
          tokens * UNIT,
          [],
          {
            commitment: 'confirmed',
          },
          TOKEN_2022_PROGRAM_ID,
        );
      }
    };
    shopWallet = Keypair.generate();
    await holder(shopWallet.publicKey, 0n);
    const treasury = await funded(connection, 10);
    await holder(treasury.publicKey, 400_000_000n);
    buyer = await funded(connection, 100);
    await holder(buyer.publicKey, 1_000_000n);

    feeds = await startFakeMarketFeeds();
    shop = await startShop({
      backend,
      env: {
        ...ENV,
        SOLANA_RPC_URL: `${host.url}/local-chain`,
        TOKEN_MINT: mint.toBase58(),
        SHOP_WALLET: shopWallet.publicKey.toBase58(),
        TREASURY_SECRET_KEY: JSON.stringify([...treasury.secretKey]),
        MARKET_DEX_URL: feeds.dexUrl,
        MARKET_PRICE_URL: feeds.priceUrl,
        PAYMENT_WATCH_INTERVAL_MS: '100',
      },
    });
  }, 90_000);
  afterAll(async () => {
    if (shop) await stopShop(shop);
    if (host) await stopShop(host);
    await feeds?.close();
  });

  it("reads the mint's program from the chain: the shop's token account is its Token-2022 account", async () => {
    expect((await getMint(connection, mint, 'confirmed', TOKEN_2022_PROGRAM_ID)).decimals).toBe(DECIMALS);
    const accounts = await shop.t.deps.chain.requireAccounts();
    expect(accounts.tokenProgram).toBe(TOKEN_2022_PROGRAM_ID.toBase58());
    expect(accounts.shopTokenAccount).toBe(tokenAccount(shopWallet.publicKey).toBase58());
    const info = await api<{ token: { mint: string; paymentsEnabled: boolean; salesEnabled: boolean } }>(
      shop,
      'GET',
      '/api/shop',
    );
    expect(info.body.token).toMatchObject({
      mint: mint.toBase58(),
      paymentsEnabled: true,
      salesEnabled: true,
    });
  });

  async function aeloCheckout() {
    const started = await checkout(shop, {
      paymentMethod: 'aelo',
      product: { priceCents: 6_000, quantity: 5 },
    });
    expect(started.amounts.totalCents).toBe(5_400); // $60, free shipping, 10% off
    return { ...started, crypto: started.crypto! };
  }

  async function completed(reference: string) {
    const done = await waitForStatus(shop, reference, 'completed', 15_000);
    const orders = await shop.t.deps.database.db
      .selectFrom('orders')
      .innerJoin('payments', 'payments.id', 'orders.payment_id')
      .select(['orders.status', 'orders.payment_method'])
      .where('payments.reference', '=', reference)
      .execute();
    expect(orders).toEqual([{ status: 'pending', payment_method: 'aelo' }]);
    return done;
  }

  it('an AELO checkout paid from its transfer request URL makes an order', async () => {
    const started = await aeloCheckout();
    const request = parseURL(started.crypto.paymentUrl) as TransferRequestURL;
    expect(request.splToken?.toBase58()).toBe(mint.toBase58());
    expect(request.recipient.toBase58()).toBe(shopWallet.publicKey.toBase58());
    const amount = BigInt(started.crypto.amount);
    expect(BigInt(request.amount!.times(10 ** DECIMALS).toFixed(0))).toBe(amount);
    // As a wallet that knows Token-2022 pays it: TransferChecked under the mint's program, between
    // the associated accounts of that program, the reference among the instruction's accounts.
    // (@solana/pay 0.2.6's createTransfer compares the mint's owner by object identity, so it
    // always builds a classic Token transfer.)
    const ix = createTransferCheckedInstruction(
      tokenAccount(buyer.publicKey),
      mint,
      tokenAccount(request.recipient),
      buyer.publicKey,
      amount,
      DECIMALS,
      [],
      TOKEN_2022_PROGRAM_ID,
    );
    for (const reference of request.reference!)
      ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    const before = await balance(shopWallet.publicKey);
    const signature = await sendAndConfirmTransaction(connection, new Transaction().add(ix), [buyer], {
      commitment: 'confirmed',
    });
    const done = await completed(started.reference);
    expect(done.transaction_signature).toBe(signature);
    expect((await balance(shopWallet.publicKey)) - before).toBe(amount);
  });

  it("an AELO checkout paid through the server's transaction request makes an order", async () => {
    const started = await aeloCheckout();
    const res = await api<{ transaction: string }>(
      shop,
      'POST',
      `/api/solana-pay/payments/${started.reference}`,
      { account: buyer.publicKey.toBase58() },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tx = Transaction.from(Buffer.from(res.body.transaction, 'base64'));
    expect(tx.instructions.map((i) => i.programId.toBase58())).toEqual([TOKEN_2022_PROGRAM_ID.toBase58()]);
    expect(tx.instructions[0]!.keys.map((k) => k.pubkey.toBase58())).toContain(started.reference);
    tx.partialSign(buyer);
    const before = await balance(shopWallet.publicKey);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction(signature, 'confirmed');
    const done = await completed(started.reference);
    expect(done.transaction_signature).toBe(signature);
    expect((await balance(shopWallet.publicKey)) - before).toBe(BigInt(started.crypto.amount));
  });

  it('a Buy Token sends the Token-2022 token from the treasury to a new buyer', async () => {
    const newcomer = await funded(connection, 50);
    const created = await api<TokenPurchaseResponse>(shop, 'POST', '/api/token-purchases', {
      amountUsd: '25',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const purchase = created.body;
    expect(purchase.tokenDecimals).toBe(DECIMALS);
    const link = purchase.transactionUrl.replace(TEST_ORIGIN, shop.url);
    const tx = await fetchTransaction(connection, newcomer.publicKey, link);
    tx.partialSign(newcomer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction(signature, 'confirmed');
    const done = await vi.waitFor(
      async () => {
        const current = (
          await api<TokenPurchaseResponse>(shop, 'GET', `/api/token-purchases/${purchase.reference}`)
        ).body;
        expect(current, `purchase ${purchase.reference}`).toMatchObject({ status: 'completed' });
        return current;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(done.signature).toBe(signature);
    expect(await balance(newcomer.publicKey)).toBe(BigInt(purchase.tokenAmount));
  });
});

warnIfPostgresSkipped();
