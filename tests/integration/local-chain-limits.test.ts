/**
 * /local-chain under an anonymous client's load: the ledger's work runs off the request thread (a
 * 100-call getProgramAccounts batch leaves the shop answering), a batch and its work are bounded,
 * the faucet and sends are rate-limited per client (HTTP 429 with a JSON-RPC error, as public RPC
 * nodes answer), and however many clients use the faucet, blocks come at a bounded pace, so a
 * transaction handed out to a shopper stays valid while they approve it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { address } from '@solana/kit';
import { Connection, Keypair, LAMPORTS_PER_SOL, Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTokenAccount } from '#server/local-ledger/genesis';
import { CHECKOUT_LIMITS, cryptoCheckout, waitForStatus } from '../helpers/crypto-checkout';
import { startShop, stopShop, type RunningShop } from '../helpers/shop-server';

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const UPGRADEABLE_LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';

interface RpcAnswer {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** POSTs a JSON-RPC body to /local-chain, as the client `forwardedFor` (through the trusted proxy). */
async function post(shop: RunningShop, body: unknown, forwardedFor?: string) {
  const res = await fetch(`${shop.url}/local-chain`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const call = (id: number, method: string, params?: unknown[]) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

/** Runs `tasks` with at most `width` at once. */
async function inParallel<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

describe('the local chain under one client', () => {
  let shop: RunningShop;

  afterAll(async () => {
    if (shop) await stopShop(shop);
  });

  it('serves a 100-call getProgramAccounts batch without stalling the shop', async () => {
    // Limits out of the way: what is measured here is where the work runs.
    shop = await startShop({
      watcher: false,
      env: {
        LOCAL_CHAIN_MAX_BATCH: '100',
        LOCAL_CHAIN_MAX_ACCOUNTS_PER_REQUEST: '1000000',
        LOCAL_CHAIN_MAX_DATA_PER_REQUEST_BYTES: '1000000000',
        LOCAL_CHAIN_SCANS_PER_MINUTE: '100000',
        LOCAL_CHAIN_CALLS_PER_MINUTE: '100000',
      },
    });
    const chain = await shop.t.deps.localChain!.get();
    // 30 more holders (about 100 token accounts): each call parses every one of them.
    for (let i = 0; i < 30; i++) {
      await writeTokenAccount(
        chain.ledger,
        chain.setup.mint,
        address(Keypair.generate().publicKey.toBase58()),
        BigInt(i + 1) * 1_000_000n,
      );
    }
    const batch = Array.from({ length: 100 }, (_, i) =>
      call(i, 'getProgramAccounts', [TOKEN_PROGRAM, { encoding: 'jsonParsed' }]),
    );
    expect(JSON.stringify(batch).length).toBeLessThan(16_000);

    const delay = monitorEventLoopDelay({ resolution: 10 });
    const healthLatencies: number[] = [];
    let done = false;
    delay.enable();
    const started = performance.now();
    const answer = post(shop, batch).finally(() => {
      done = true;
    });
    const pings = (async () => {
      while (!done) {
        const t0 = performance.now();
        const res = await fetch(`${shop.url}/api/health`);
        await res.arrayBuffer();
        healthLatencies.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const { status, text } = await answer;
    const batchMs = performance.now() - started;
    await pings;
    delay.disable();

    expect(status).toBe(200);
    const answers = JSON.parse(text) as RpcAnswer[];
    expect(answers).toHaveLength(100);
    expect((answers[99]!.result as unknown[]).length).toBeGreaterThanOrEqual(90);
    // The batch took a while (it ran: seconds, on the request thread before), yet the shop's own
    // thread never waited on it. On a loaded machine everything is slower, the batch too: the
    // bounds are a share of the batch's time as well as an absolute one.
    const worstDelayMs = delay.max / 1e6;
    const worstHealthMs = Math.max(...healthLatencies);
    console.info(
      `100-call batch: ${batchMs.toFixed(0)} ms; event loop delay max ${worstDelayMs.toFixed(0)} ms; ` +
        `health max ${worstHealthMs.toFixed(0)} ms over ${healthLatencies.length} requests`,
    );
    expect(healthLatencies.length).toBeGreaterThanOrEqual(2);
    expect(worstDelayMs).toBeLessThan(Math.min(1_000, batchMs / 4));
    expect(worstHealthMs).toBeLessThan(Math.max(750, batchMs / 3));
    await stopShop(shop);
  }, 120_000);
});

describe('the local chain, bounded per request and per client', () => {
  let shop: RunningShop;

  beforeAll(async () => {
    // The test process is the proxy in front of many clients (X-Forwarded-For); the limits are the defaults.
    shop = await startShop({
      watcher: true,
      env: {
        ...CHECKOUT_LIMITS,
        TRUSTED_PROXIES: '127.0.0.1',
        LOCAL_CHAIN_MAX_BATCH: '20',
        LOCAL_CHAIN_MAX_ACCOUNTS_PER_REQUEST: '2000',
        LOCAL_CHAIN_MAX_DATA_PER_REQUEST_BYTES: '4194304',
        LOCAL_CHAIN_CALLS_PER_MINUTE: '600',
        LOCAL_CHAIN_SENDS_PER_MINUTE: '60',
        LOCAL_CHAIN_AIRDROPS_PER_MINUTE: '10',
        LOCAL_CHAIN_SCANS_PER_MINUTE: '60',
      },
    });
  }, 60_000);
  afterAll(() => stopShop(shop));

  it('refuses a batch over the cap, and bounds the accounts one request may return', async () => {
    const over = await post(
      shop,
      Array.from({ length: 21 }, (_, i) => call(i, 'getSlot')),
      '198.51.100.20',
    );
    expect(over.status).toBe(413);
    expect(JSON.parse(over.text)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: a batch may hold at most 20 requests' },
      id: null,
    });
    const atCap = await post(
      shop,
      Array.from({ length: 20 }, (_, i) => call(i, 'getSlot')),
      '198.51.100.20',
    );
    expect(atCap.status).toBe(200);
    expect(JSON.parse(atCap.text)).toHaveLength(20);

    // The upgradeable loader's program data accounts: about 1.5 MB an answer, 20 of them 29 MB.
    const heavy = await post(
      shop,
      Array.from({ length: 20 }, (_, i) => call(i, 'getProgramAccounts', [UPGRADEABLE_LOADER])),
      '198.51.100.21',
    );
    expect(heavy.status).toBe(200);
    expect(heavy.text.length).toBeLessThan(8 * 1024 * 1024);
    const answers = JSON.parse(heavy.text) as RpcAnswer[];
    expect(answers).toHaveLength(20);
    expect(answers[0]!.result).toBeDefined();
    const refused = answers.filter((a) => a.error);
    expect(refused.length).toBeGreaterThan(10);
    expect(refused[0]!.error).toEqual({
      code: -32012,
      message: expect.stringMatching(/at most 4194304 bytes of account data/),
    });
  });

  it('answers a faucet flood from one client with 429s, and a handed-out transaction stays valid through floods', async () => {
    // A shopper starts a SOL checkout and gets the transaction to approve from the transaction request.
    const chain = await shop.t.deps.localChain!.get();
    const shopper = Keypair.fromSecretKey(Uint8Array.from(chain.setup.demoShopperKey));
    const started = await cryptoCheckout(shop, 'sol');
    const handedOut = await fetch(`${shop.url}/api/solana-pay/payments/${started.reference}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.50' },
      body: JSON.stringify({ account: shopper.publicKey.toBase58() }),
    });
    expect(handedOut.status).toBe(200);
    const { transaction } = (await handedOut.json()) as { transaction: string };

    // While they look at it, one client asks the faucet 155 times as fast as it can.
    const flooder = '198.51.100.7';
    const t0 = performance.now();
    const flood = await inParallel(
      Array.from(
        { length: 155 },
        (_, i) => () =>
          post(
            shop,
            call(i, 'requestAirdrop', [Keypair.generate().publicKey.toBase58(), LAMPORTS_PER_SOL]),
            flooder,
          ),
      ),
      8,
    );
    const floodMs = performance.now() - t0;
    const served = flood.filter((r) => r.status === 200);
    const limited = flood.filter((r) => r.status === 429);
    console.info(
      `one-client flood: ${served.length} served, ${limited.length} refused in ${floodMs.toFixed(0)} ms`,
    );
    expect(served.length).toBeGreaterThanOrEqual(10);
    // A minute's 10 at once, then one per 6 s of the flood (a loaded machine makes it longer).
    expect(served.length).toBeLessThanOrEqual(10 + Math.ceil(floodMs / 6_000));
    expect(limited.length).toBe(155 - served.length);
    const refusal = limited[0]!;
    expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(refusal.text)).toEqual({
      jsonrpc: '2.0',
      error: { code: 429, message: expect.stringMatching(/^Too many requests/) },
      id: expect.any(Number),
    });
    // web3.js reads it as a rate limit (it retries 429s unless told not to).
    const flooded = new Connection(`${shop.url}/local-chain`, {
      commitment: 'confirmed',
      disableRetryOnRateLimit: true,
      httpHeaders: { 'x-forwarded-for': flooder },
    });
    await expect(flooded.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL)).rejects.toThrow(
      /429/,
    );
    // Another client is not held back by it.
    const other = await post(shop, call(1, 'getSlot'), '198.51.100.8');
    expect(other.status).toBe(200);

    // Then 155 clients ask the faucet once each: all served, but blocks come at a bounded pace.
    const many = await inParallel(
      Array.from(
        { length: 155 },
        (_, i) => () =>
          post(
            shop,
            call(i, 'requestAirdrop', [Keypair.generate().publicKey.toBase58(), LAMPORTS_PER_SOL]),
            `203.0.113.${i + 1}`,
          ),
      ),
      8,
    );
    expect(many.map((r) => r.status)).toEqual(many.map(() => 200));

    // The shopper approves: the transaction handed out before both floods still lands and pays.
    const shopperConnection = new Connection(`${shop.url}/local-chain`, {
      commitment: 'confirmed',
      httpHeaders: { 'x-forwarded-for': '192.0.2.50' },
    });
    const tx = Transaction.from(Buffer.from(transaction, 'base64'));
    tx.partialSign(shopper);
    const signature = await shopperConnection.sendRawTransaction(tx.serialize());
    const status = await shopperConnection.getSignatureStatus(signature);
    expect(status.value?.err).toBeNull();
    const done = await waitForStatus(shop, started.reference, 'completed');
    expect(done.transaction_signature).toBe(signature);
  }, 120_000);

  it('counts every address of an IPv6 /64 as one client of the faucet', async () => {
    const t0 = performance.now();
    const answers = await inParallel(
      Array.from(
        { length: 15 },
        (_, i) => () =>
          post(
            shop,
            call(i, 'requestAirdrop', [Keypair.generate().publicKey.toBase58(), LAMPORTS_PER_SOL]),
            `2001:db8:5:7::${(i + 1).toString(16)}`,
          ),
      ),
      4,
    );
    const served = answers.filter((a) => a.status === 200).length;
    expect(served).toBeLessThanOrEqual(10 + Math.ceil((performance.now() - t0) / 6_000));
    expect(answers.filter((a) => a.status === 429).length).toBe(15 - served);
    // The next /64 is another client.
    const next = await post(
      shop,
      call(1, 'requestAirdrop', [Keypair.generate().publicKey.toBase58(), LAMPORTS_PER_SOL]),
      '2001:db8:5:8::1',
    );
    expect(next.status).toBe(200);
  });

  it('limits sends per client', async () => {
    const client = '198.51.100.30';
    const t0 = performance.now();
    const answers = await inParallel(
      Array.from(
        { length: 90 },
        (_, i) => () => post(shop, call(i, 'sendTransaction', ['not-a-transaction']), client),
      ),
      8,
    );
    // A minute's 60 at once, then one a second.
    const served = answers.filter((a) => a.status === 200).length;
    expect(served).toBeGreaterThanOrEqual(60);
    expect(served).toBeLessThanOrEqual(60 + Math.ceil((performance.now() - t0) / 1_000));
    expect(answers.filter((a) => a.status === 429).length).toBe(90 - served);
  });
});
