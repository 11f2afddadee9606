/**
 * The local ledger's JSON-RPC at /local-chain, driven over HTTP by unmodified @solana/web3.js 1.x,
 * @solana/spl-token and @solana/pay: funding, SOL and AELO payments found by reference and
 * validated, versioned transactions, token queries, a node's error shapes, state kept across a
 * restart, and no /local-chain when SOLANA_RPC_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTransfer,
  encodeURL,
  findReference,
  parseURL,
  validateTransfer,
  type TransferRequestURL,
} from '@solana/pay';
import { getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { Connection } from '@solana/web3.js';
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  sendAndConfirmTransaction,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import BigNumber from 'bignumber.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalChain } from '#server/local-ledger/local-chain';
import { connect, startShop as startRunningShop, stopShop, type RunningShop } from '../helpers/shop-server';

type Running = RunningShop;

function startShop(env: Record<string, string> = {}): Promise<Running> {
  return startRunningShop({ env, watcher: false });
}

async function rpc(url: string, method: string, params?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/local-chain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe('local ledger JSON-RPC at /local-chain', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-ledger-'));
  let shop: Running;
  let connection: Connection;
  let chain: LocalChain;
  let shopper: Keypair;

  beforeAll(async () => {
    shop = await startShop({ DATA_DIR: dataDir });
    connection = connect(shop);
    chain = await shop.t.deps.localChain!.get();
    shopper = Keypair.fromSecretKey(Uint8Array.from(chain.setup.demoShopperKey));
  });
  afterAll(async () => {
    await stopShop(shop);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers a node's basic calls and its error shapes", async () => {
    expect(await connection.getVersion()).toMatchObject({ 'solana-core': expect.any(String) });
    expect(await connection.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const slot = await connection.getSlot();
    expect(await connection.getBlockHeight()).toBeGreaterThanOrEqual(slot);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    expect(lastValidBlockHeight).toBeGreaterThan(slot);
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(true);
    expect((await connection.isBlockhashValid('11111111111111111111111111111111')).value).toBe(false);
    expect(await connection.getMinimumBalanceForRentExemption(165)).toBe(2039280);
    expect(await rpc(shop.url, 'getHealth')).toEqual({ jsonrpc: '2.0', result: 'ok', id: 7 });

    expect(await rpc(shop.url, 'noSuchMethod')).toEqual({
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found' },
      id: 7,
    });
    const bad = await rpc(shop.url, 'getBalance', ['not-an-address']);
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid params/) });
    const parse = await fetch(`${shop.url}/local-chain`, { method: 'POST', body: '{oops' });
    expect(await parse.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error' },
      id: null,
    });
    expect((await fetch(`${shop.url}/local-chain`)).status).toBe(405);
  });

  it('funds a new wallet (requestAirdrop) and moves SOL, with the full transaction meta', async () => {
    const payer = Keypair.generate();
    const airdrop = await connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    expect(await connection.getBalance(payer.publicKey)).toBe(2 * LAMPORTS_PER_SOL);

    const to = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 0.5 * LAMPORTS_PER_SOL }),
    );
    const signature = await sendAndConfirmTransaction(connection, tx, [payer]);
    expect(await connection.getBalance(to)).toBe(0.5 * LAMPORTS_PER_SOL);
    expect(await connection.getBalance(payer.publicKey)).toBe(1.5 * LAMPORTS_PER_SOL - 5000);

    const status = await connection.getSignatureStatus(signature, { searchTransactionHistory: true });
    expect(status.value).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    const found = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(found?.meta).toMatchObject({
      err: null,
      fee: 5000,
      preBalances: [2 * LAMPORTS_PER_SOL, 0, 1],
      postBalances: [1.5 * LAMPORTS_PER_SOL - 5000, 0.5 * LAMPORTS_PER_SOL, 1],
    });
    expect(found?.meta?.logMessages).toContain('Program 11111111111111111111111111111111 success');
    expect(found?.blockTime).toBeGreaterThan(1_700_000_000);
    expect(await connection.getBlockTime(found!.slot)).toBe(found!.blockTime);
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(
      parsed?.transaction.message.accountKeys.map((k) => [k.pubkey.toBase58(), k.signer, k.writable]),
    ).toEqual([
      [payer.publicKey.toBase58(), true, true],
      [to.toBase58(), false, true],
      [SystemProgram.programId.toBase58(), false, false],
    ]);
    const history = await connection.getSignaturesForAddress(payer.publicKey);
    expect(history.map((h) => h.signature)).toEqual([signature, airdrop]);
    expect(await connection.getSignaturesForAddress(payer.publicKey, { before: signature })).toHaveLength(1);
    const raw = await rpc(shop.url, 'getTransaction', [signature, { encoding: 'base64' }]);
    expect((raw.result as { transaction: [string, string] }).transaction[1]).toBe('base64');

    // The shop's explorer page arrives with the transaction in its HTML (no placeholder to swap),
    // rendered by the built web app (npm run build).
    const page = await shop.t.app.request(`/explorer/tx/${signature}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(signature);
    expect(html).toContain(to.toBase58());
    expect(html).toContain('Program 11111111111111111111111111111111 success');
    expect(html).not.toContain('animate-pulse rounded-xl');
  });

  it('runs versioned transactions and asks clients to accept them', async () => {
    const to = Keypair.generate().publicKey;
    const message = new TransactionMessage({
      payerKey: shopper.publicKey,
      recentBlockhash: (await connection.getLatestBlockhash()).blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: shopper.publicKey, toPubkey: to, lamports: 1_000_000 }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([shopper]);
    const signature = await connection.sendTransaction(tx);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
    const legacyOnly = await rpc(shop.url, 'getTransaction', [signature, { encoding: 'json' }]);
    expect(legacyOnly.error).toMatchObject({ code: -32015 });
    const found = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(found?.version).toBe(0);
    expect(found?.meta?.postBalances[1]).toBe(1_000_000);
    expect((await connection.getFeeForMessage(message)).value).toBe(5000);
  });

  it('refuses at preflight what would fail, with the logs, and keeps nothing', async () => {
    const poor = Keypair.generate();
    const airdrop = await connection.requestAirdrop(poor.publicKey, 10_000_000);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: poor.publicKey,
        toPubkey: shopper.publicKey,
        lamports: LAMPORTS_PER_SOL,
      }),
    );
    const error = await sendAndConfirmTransaction(connection, tx, [poor]).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SendTransactionError);
    expect((error as SendTransactionError).message).toMatch(
      /Transaction simulation failed: Error processing Instruction 0/,
    );
    expect((error as SendTransactionError).logs?.join('\n')).toMatch(/insufficient lamports/);
    expect(await connection.getBalance(poor.publicKey)).toBe(10_000_000);
    expect(await connection.getSignaturesForAddress(poor.publicKey)).toHaveLength(1);
  });

  it('holds the AELO mint, the shop wallet, the demo shopper and about 60 holders, as wallets read them', async () => {
    const mint = new PublicKey(chain.setup.mint);
    const info = await connection.getParsedAccountInfo(mint);
    expect(info.value?.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'mint', info: { decimals: 6 } },
    });
    const owned = await connection.getParsedTokenAccountsByOwner(shopper.publicKey, { mint });
    expect(owned.value).toHaveLength(1);
    expect(owned.value[0]!.account.data.parsed).toMatchObject({
      type: 'account',
      info: {
        mint: mint.toBase58(),
        owner: shopper.publicKey.toBase58(),
        tokenAmount: { uiAmount: 5_000_000, decimals: 6 },
      },
    });
    const byProgram = await connection.getTokenAccountsByOwner(shopper.publicKey, {
      programId: TOKEN_PROGRAM_ID,
    });
    expect(byProgram.value).toHaveLength(1);
    const largest = await connection.getTokenLargestAccounts(mint);
    expect(largest.value).toHaveLength(20);
    expect(largest.value[0]!.uiAmount).toBe(400_000_000);
    const holders = await connection.getProgramAccounts(TOKEN_PROGRAM_ID, {
      filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint.toBase58() } }],
    });
    expect(holders.length).toBeGreaterThanOrEqual(60);
    const shopAta = getAssociatedTokenAddressSync(mint, new PublicKey(chain.setup.shopWallet));
    expect((await connection.getTokenAccountBalance(shopAta)).value.amount).toBe('0');
    const [a, b] = (await connection.getMultipleAccountsInfo([shopAta, Keypair.generate().publicKey])) ?? [];
    expect(a?.owner.toBase58()).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(b).toBeNull();
  });

  async function payFromUrl(url: URL): Promise<string> {
    const request = parseURL(url) as TransferRequestURL;
    const tx = await createTransfer(connection, shopper.publicKey, {
      recipient: request.recipient,
      amount: request.amount!,
      splToken: request.splToken,
      reference: request.reference,
      memo: request.memo,
    });
    return sendAndConfirmTransaction(connection, tx, [shopper]);
  }

  it('pays a Solana Pay request in SOL and in AELO, found by reference and validated by @solana/pay', async () => {
    const recipient = new PublicKey(chain.setup.shopWallet);
    const mint = new PublicKey(chain.setup.mint);
    for (const splToken of [undefined, mint]) {
      const reference = Keypair.generate().publicKey;
      const amount = new BigNumber('1.2345');
      const url = encodeURL({ recipient, amount, reference, splToken, label: 'AELO Shop', message: 'Order' });
      const signature = await payFromUrl(url);
      const found = await findReference(connection, reference, { finality: 'confirmed' });
      expect(found.signature).toBe(signature);
      await expect(
        validateTransfer(
          connection,
          signature,
          { recipient, amount, splToken, reference },
          { commitment: 'confirmed' },
        ),
      ).resolves.toBeDefined();
      // A request for more than was paid, or to someone else, does not validate.
      await expect(
        validateTransfer(connection, signature, {
          recipient,
          amount: new BigNumber('2'),
          splToken,
          reference,
        }),
      ).rejects.toThrow(/amount not transferred/);
      await expect(
        validateTransfer(connection, signature, {
          recipient: Keypair.generate().publicKey,
          amount,
          splToken,
          reference,
        }),
      ).rejects.toThrow();
    }
  });

  it('keeps accounts and transaction history across a restart, and serves nothing when SOLANA_RPC_URL is set', async () => {
    const to = Keypair.generate().publicKey;
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: shopper.publicKey, toPubkey: to, lamports: 7_000_000 }),
      ),
      [shopper],
    );
    const genesis = await connection.getGenesisHash();
    const slot = await connection.getSlot();
    await stopShop(shop);

    shop = await startShop({ DATA_DIR: dataDir });
    connection = connect(shop);
    expect(await connection.getGenesisHash()).toBe(genesis);
    expect(await connection.getSlot()).toBe(slot);
    expect(await connection.getBalance(to)).toBe(7_000_000);
    expect(
      (await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))?.meta?.err,
    ).toBeNull();
    expect((await connection.getSignaturesForAddress(to))[0]?.signature).toBe(signature);
    expect((await shop.t.deps.localChain!.get()).setup.mint).toBe(chain.setup.mint);

    const remote = await startShop({ SOLANA_RPC_URL: `${shop.url}/local-chain` });
    try {
      expect(remote.t.deps.localChain).toBeUndefined();
      // No ledger answers there (it would, before the page layer): a JSON-RPC call is a POST to a
      // page path, a form post without the shop's origin, refused.
      const res = await fetch(`${remote.url}/local-chain`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error: { code: 'CSRF_REJECTED', message: 'Cross-site request refused' },
      });
    } finally {
      await stopShop(remote);
    }
  });
});
