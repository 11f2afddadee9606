/**
 * The holder-rewards engine on the local ledger (litesvm), checked with unmodified web3.js: who
 * the top 50 are (program-derived, program-owned, executable and listed owners excluded), what
 * each is paid (90% of the pool in proportion, shares under 1 USD carried over), that a crash or
 * an RPC error in the middle of a run never pays a holder twice nor forgets one, that random
 * airdrops wait for the market-cap goal and keep their schedule, that two instances never run
 * the same airdrop, and the rewards figures a wallet sees.
 */
import { address, createDefaultRpcTransport, getProgramDerivedAddress, type RpcTransport } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { Keypair, PublicKey, type Connection } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { centsToLamports, top50BudgetCents, usdToMicros } from '#common/rewards';
import { LOCAL_MARKET } from '#common/schemas/market';
import { openDatabase } from '#server/db/client';
import { createLogger } from '#server/lib/logger';
import { writeTokenAccount } from '#server/local-ledger/genesis';
import { loadConfig } from '#server/config';
import { createAirdropEngine, type AirdropFaults } from '#server/modules/airdrops/airdrop-engine';
import { readTokenAccounts } from '#server/modules/airdrops/holder-snapshot';
import { createChainService } from '#server/modules/chain/chain.service';
import type { MarketService } from '#server/modules/market/market.service';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { seededRandom } from '../helpers/seeded-random';
import { connect, startShop, stopShop, type RunningShop } from '../helpers/shop-server';
import { json, signInClients } from './admin-test-kit';

warnIfPostgresSkipped();

const AELO = 1_000_000n;
const SOL_PRICE = usdToMicros(LOCAL_MARKET.solUsd);
const SYSTEM = address('11111111111111111111111111111111');
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

interface Holders {
  /** The 60 plain wallets, largest first: (69 - i) million AELO. */
  wallets: string[];
  amounts: Map<string, bigint>;
  excluded: string[];
}

async function tokenAccount(shop: RunningShop, owner: string, amount: bigint) {
  const { ledger, setup } = await shop.t.deps.localChain!.get();
  await writeTokenAccount(ledger, setup.mint, address(owner), amount);
}

/**
 * 60 wallets from 10 to 69 million AELO (more than any genesis holder), and larger holders that
 * must be left out: a listed liquidity pool, a program-derived owner, an owner that is a program's
 * account, an executable owner.
 */
async function seedHolders(shop: RunningShop, liquidityPool: string): Promise<Holders> {
  const { ledger } = await shop.t.deps.localChain!.get();
  const wallets: string[] = [];
  const amounts = new Map<string, bigint>();
  for (let i = 0; i < 60; i++) {
    const owner = Keypair.generate().publicKey.toBase58();
    const amount = BigInt(69 - i) * 1_000_000n * AELO;
    wallets.push(owner);
    amounts.set(owner, amount);
    await tokenAccount(shop, owner, amount);
  }
  const [pda] = await getProgramDerivedAddress({ programAddress: SYSTEM, seeds: ['rewards test vault'] });
  const programOwned = Keypair.generate().publicKey.toBase58();
  // An executable owner: a program's own address (the Memo program is loaded in litesvm).
  const executable = MEMO_PROGRAM;
  ledger.setAccount({
    address: address(programOwned),
    lamports: 10_000_000n,
    owner: TOKEN_PROGRAM_ADDRESS,
    executable: false,
    data: new Uint8Array(8),
  });
  await tokenAccount(shop, liquidityPool, 500_000_000n * AELO);
  await tokenAccount(shop, pda, 300_000_000n * AELO);
  await tokenAccount(shop, programOwned, 200_000_000n * AELO);
  await tokenAccount(shop, executable, 250_000_000n * AELO);
  return { wallets, amounts, excluded: [liquidityPool, pda, programOwned, executable] };
}

/** What the rules say the top 50 receive from a pool (cents → lamports), skipped shares left out. */
function expectedPayouts(holders: Holders, poolCents: number): Map<string, bigint> {
  const top = holders.wallets.slice(0, 50);
  const total = top.reduce((sum, w) => sum + holders.amounts.get(w)!, 0n);
  const budget = BigInt(top50BudgetCents(poolCents));
  const out = new Map<string, bigint>();
  for (const w of top) {
    const cents = Number((budget * holders.amounts.get(w)!) / total);
    if (cents >= 100) out.set(w, centsToLamports(cents, SOL_PRICE));
  }
  return out;
}

async function balances(connection: Connection, owners: readonly string[]): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  for (const o of owners) out.set(o, BigInt(await connection.getBalance(new PublicKey(o), 'confirmed')));
  return out;
}

async function creditPool(shop: RunningShop, pool: 'buyback' | 'random', cents: number) {
  await shop.t.deps.database.db
    .insertInto('reward_pool_entries')
    .values({ pool, amount_cents: cents, source: 'order' })
    .execute();
}

const poolBalance = async (shop: RunningShop, pool: 'buyback' | 'random') =>
  Number(
    (
      await shop.t.deps.database.db
        .selectFrom('reward_pool_entries')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.val('0')).as('total'))
        .where('pool', '=', pool)
        .executeTakeFirstOrThrow()
    ).total,
  );

function engineFor(
  shop: RunningShop,
  options: {
    faults?: AirdropFaults;
    transport?: RpcTransport;
    market?: MarketService;
    random?: () => number;
    now?: () => Date;
    database?: RunningShop['t']['deps']['database'];
  } = {},
) {
  const url = `${shop.url}/local-chain`;
  return createAirdropEngine({
    config: shop.t.deps.config,
    database: options.database ?? shop.t.deps.database,
    logger: createLogger('silent'),
    chain: shop.t.deps.chain,
    transport: options.transport ?? createDefaultRpcTransport({ url }),
    market: options.market ?? shop.t.deps.market,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

/** Every expected recipient's balance grew by exactly its payout; everyone else's did not move. */
function expectPaidOnce(
  before: Map<string, bigint>,
  after: Map<string, bigint>,
  expected: Map<string, bigint>,
): void {
  for (const [owner, was] of before) {
    expect(after.get(owner)! - was, owner).toBe(expected.get(owner) ?? 0n);
  }
}

describe.each(BACKENDS)('holder-rewards engine (%s)', (backend) => {
  let shop: RunningShop | undefined;
  afterEach(async () => {
    if (shop) await stopShop(shop);
    shop = undefined;
  });

  async function start() {
    const liquidityPool = Keypair.generate().publicKey.toBase58();
    shop = await startShop({
      backend,
      watcher: false,
      env: { AIRDROP_EXCLUDED_WALLETS: liquidityPool, AIRDROP_BATCH_SIZE: '8' },
    });
    const holders = await seedHolders(shop, liquidityPool);
    return { shop, holders, connection: connect(shop), everyone: [...holders.wallets, ...holders.excluded] };
  }

  it('pays the 50 largest eligible holders 90% of the pool in proportion, carrying shares under 1 USD over', async () => {
    const { shop, holders, connection, everyone } = await start();
    await creditPool(shop, 'buyback', 8_889); // 90% = 80.00 USD
    const expected = expectedPayouts(holders, 8_889);
    expect(expected.size).toBe(42); // 28M..69M get at least 1 USD; 20M..27M are carried over
    const before = await balances(connection, everyone);

    const clients = await signInClients(shop.t);
    const preview = await json<{ recipients: number }>(
      await clients.admin.get('/api/admin/airdrops/preview'),
      200,
    );
    expect(preview.recipients).toBe(42);
    const result = await json<{ recipients: number; totalAmount: number; totalAmountLamports: string }>(
      await clients.admin.post('/api/admin/airdrops/process'),
      200,
    );
    const total = [...expected.values()].reduce((a, b) => a + b, 0n);
    expect(result).toMatchObject({ recipients: 42, totalAmountLamports: total.toString() });
    expect(result.totalAmount).toBe(Number(total) / 1e9); // the spec's totalAmount, in SOL
    expectPaidOnce(before, await balances(connection, everyone), expected);
    // Not above 90% of the pool; what was not sent stays in it.
    expect(total).toBeLessThanOrEqual(centsToLamports(8_000, SOL_PRICE));
    const left = await poolBalance(shop, 'buyback');
    expect(left).toBeGreaterThanOrEqual(8_889 - 8_000);
    // Six transactions of up to eight transfers, all landed; the claims list on the admin's page.
    const batches = await shop.t.deps.database.db.selectFrom('airdrop_batches').selectAll().execute();
    expect(batches.map((b) => b.status)).toEqual(Array(6).fill('landed'));
    const page = await json<{ claims: { total: number }; stats: { uniqueWallets: number } }>(
      await clients.admin.get('/api/admin/airdrops?pageSize=100'),
      200,
    );
    expect(page.claims.total).toBe(42);
    expect(page.stats.uniqueWallets).toBe(42);

    // Rewards figures: the claims, and the rank among eligible holders in the latest snapshot.
    const first = await shop.t.deps.rewards.forWallet(holders.wallets[0]!);
    expect(first).toMatchObject({
      totalEarned: expected.get(holders.wallets[0]!)!.toString(),
      top50Rewards: expected.get(holders.wallets[0]!)!.toString(),
      randomAirdrops: '0',
      rank: 1,
    });
    expect((await shop.t.deps.rewards.forWallet(holders.wallets[49]!)).rank).toBe(50);
    expect((await shop.t.deps.rewards.forWallet(holders.wallets[49]!)).totalEarned).toBe('0');
    expect((await shop.t.deps.rewards.forWallet(holders.wallets[50]!)).rank).toBeNull();
    expect((await shop.t.deps.rewards.forWallet(holders.excluded[0]!)).rank).toBeNull();

    // The rest (under 9 USD) makes no share of 1 USD: nothing is sent and the pool keeps it.
    const again = await json<{ recipients: number }>(
      await clients.admin.post('/api/admin/airdrops/process'),
      200,
    );
    expect(again.recipients).toBe(0);
    expect(await poolBalance(shop, 'buyback')).toBe(left);
  });

  it('resumes after a crash after a batch was sent, or after it was recorded and not sent: everyone paid exactly once', async () => {
    const { shop, holders, connection, everyone } = await start();
    for (const fault of ['afterSend', 'afterRecord'] as const) {
      await creditPool(shop, 'buyback', 20_000);
      const expected = expectedPayouts(holders, await poolBalance(shop, 'buyback'));
      const before = await balances(connection, everyone);
      let crashed = false;
      const crashing = engineFor(shop, {
        faults: {
          [fault]: (batchNo: number) => {
            if (batchNo === 2 && !crashed) {
              crashed = true;
              throw new Error(`crash ${fault} batch 2`);
            }
          },
        },
      });
      await expect(crashing.run()).rejects.toThrow(`crash ${fault} batch 2`);
      const midway = await balances(connection, everyone);
      const paidMidway = [...midway].filter(([o, v]) => v !== before.get(o)).length;
      expect(paidMidway).toBe(fault === 'afterSend' ? 16 : 8);

      // The restarted instance finishes the run before anything else.
      await engineFor(shop).resume();
      expectPaidOnce(before, await balances(connection, everyone), expected);
      const open = await shop.t.deps.database.db
        .selectFrom('airdrop_runs')
        .select('status')
        .where('status', '<>', 'completed')
        .execute();
      expect(open).toEqual([]);
    }
  });

  it('reads the same holders from a cluster over HTTP as from the ledger in process', async () => {
    const { shop, holders } = await start();
    const { setup } = await shop.t.deps.localChain!.get();
    // The shop's chain service as it is on a real cluster: SOLANA_RPC_URL, its JSON-RPC over HTTP.
    const remote = createChainService({
      config: loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: shop.t.dataDir,
        SOLANA_RPC_URL: `${shop.url}/local-chain`,
        SOLANA_CLUSTER: 'devnet',
        TOKEN_MINT: setup.mint,
        SHOP_WALLET: setup.shopWallet,
      }),
      localChain: undefined,
    });
    const overHttp = await readTokenAccounts(remote.transport, setup.mint);
    const inProcess = await readTokenAccounts(shop.t.deps.chain.transport, setup.mint);
    const sorted = (list: typeof overHttp) =>
      [...list].sort((a, b) => (a.owner < b.owner ? -1 : 1)).map((h) => `${h.owner}:${h.amount}`);
    expect(sorted(overHttp)).toEqual(sorted(inProcess));
    for (const wallet of holders.wallets) {
      expect(overHttp.find((h) => h.owner === wallet)?.amount).toBe(holders.amounts.get(wallet));
    }
  });

  it('an RPC error on a send that in fact landed pays nobody twice', async () => {
    const { shop, holders, connection, everyone } = await start();
    await creditPool(shop, 'buyback', 20_000);
    const expected = expectedPayouts(holders, 20_000);
    const before = await balances(connection, everyone);
    const http = createDefaultRpcTransport({ url: `${shop.url}/local-chain` });
    let failures = 3;
    const flaky = (async (request: Parameters<RpcTransport>[0]) => {
      const response = await http(request);
      const { method } = request.payload as { method: string };
      if (method === 'sendTransaction' && failures-- > 0) throw new Error('socket hang up');
      return response;
    }) as RpcTransport;
    const result = await engineFor(shop, { transport: flaky }).run();
    expect(result.recipients).toBe(expected.size);
    expectPaidOnce(before, await balances(connection, everyone), expected);
  });

  it('two instances never run the same airdrop', async () => {
    const { shop, holders, connection, everyone } = await start();
    await creditPool(shop, 'buyback', 20_000);
    const expected = expectedPayouts(holders, 20_000);
    const before = await balances(connection, everyone);
    const other =
      backend === 'postgres'
        ? await openDatabase({
            databaseUrl: shop.t.deps.config.databaseUrl,
            pgliteDir: '',
            logger: createLogger('silent'),
          })
        : shop.t.deps.database;
    try {
      // Both at the daily time: one run for the day, whoever gets there first.
      const noon = () => new Date(`${new Date().toISOString().slice(0, 10)}T23:59:00Z`);
      const [a, b] = await Promise.all([
        engineFor(shop, { now: noon }).tick(),
        engineFor(shop, { now: noon, database: other }).tick(),
      ]);
      const runs = await shop.t.deps.database.db.selectFrom('airdrop_runs').select(['run_date']).execute();
      expect(runs).toHaveLength(1);
      expect([a.ran, b.ran]).toContain(true);
      // Two admins pressing at once: one run; the other is told one is in progress.
      await creditPool(shop, 'buyback', 20_000);
      const settled = await Promise.allSettled([
        engineFor(shop).run(),
        engineFor(shop, { database: other }).run(),
      ]);
      const refused = settled.filter((s) => s.status === 'rejected');
      for (const r of refused) expect(String(r.reason)).toContain('being processed');
      const after = await balances(connection, everyone);
      const claims = await shop.t.deps.database.db
        .selectFrom('airdrop_claims')
        .select(['wallet_address', 'run_id'])
        .execute();
      // Each run pays each wallet once; the chain agrees with the claims.
      expect(new Set(claims.map((c) => `${c.run_id} ${c.wallet_address}`)).size).toBe(claims.length);
      const claimed = new Map<string, bigint>();
      for (const c of await shop.t.deps.database.db
        .selectFrom('airdrop_claims')
        .select(['wallet_address', 'amount_lamports'])
        .execute()) {
        claimed.set(c.wallet_address, (claimed.get(c.wallet_address) ?? 0n) + BigInt(c.amount_lamports));
      }
      for (const owner of everyone)
        expect(after.get(owner)! - before.get(owner)!).toBe(claimed.get(owner) ?? 0n);
      expect(claimed.get(holders.wallets[0]!)! >= expected.get(holders.wallets[0]!)!).toBe(true);
    } finally {
      if (other !== shop.t.deps.database) await other.close();
    }
  });

  it('random airdrops wait for the market-cap goal, keep their schedule across restarts, and pay the drawn holder the pool', async () => {
    const { shop, holders, connection, everyone } = await start();
    let fdv = 1_999_999;
    let clock = new Date('2026-11-25T00:00:00Z'); // before the daily time: only random work is due
    const market: MarketService = {
      solPrice: async () => ({
        solana: { usd: LOCAL_MARKET.solUsd },
        source: 'local',
        fetchedAt: clock.toISOString(),
      }),
      tokenStats: async () => ({
        pairs: [{ priceUsd: '0.001', priceChange: { h24: 0 }, volume: { h24: 0 }, fdv }],
        source: 'local',
        fetchedAt: clock.toISOString(),
      }),
    };
    const random = seededRandom(2026);
    const engine = () => engineFor(shop, { market, random, now: () => clock });
    const db = shop.t.deps.database.db;
    await creditPool(shop, 'random', 5_000);

    expect((await engine().tick()).runs).toEqual([]);
    expect(await db.selectFrom('airdrop_schedule').selectAll().execute()).toEqual([]);

    fdv = 2_000_000;
    expect((await engine().tick()).runs).toEqual([]);
    const [scheduled] = await db.selectFrom('airdrop_schedule').selectAll().execute();
    const due = new Date(scheduled!.next_at);
    expect(due.getTime()).toBeGreaterThan(clock.getTime());

    // A restart before it is due keeps the time and runs nothing.
    clock = new Date(due.getTime() - 1_000);
    expect((await engine().tick()).runs).toEqual([]);
    expect(
      new Date((await db.selectFrom('airdrop_schedule').selectAll().executeTakeFirstOrThrow()).next_at),
    ).toEqual(due);

    const before = await balances(connection, everyone);
    clock = new Date(due.getTime() + 1_000);
    const { runs } = await engine().tick();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      kind: 'random',
      recipients: 1,
      totalLamports: centsToLamports(5_000, SOL_PRICE),
    });
    const [claim] = await db.selectFrom('airdrop_claims').selectAll().where('kind', '=', 'random').execute();
    expect(claim!.status).toBe('confirmed');
    expect(holders.excluded).not.toContain(claim!.wallet_address);
    if (everyone.includes(claim!.wallet_address)) {
      const after = await balances(connection, [claim!.wallet_address]);
      expect(after.get(claim!.wallet_address)! - before.get(claim!.wallet_address)!).toBe(
        centsToLamports(5_000, SOL_PRICE),
      );
    }
    expect(await poolBalance(shop, 'random')).toBe(0);
    const next = new Date(
      (await db.selectFrom('airdrop_schedule').selectAll().executeTakeFirstOrThrow()).next_at,
    );
    expect(next.getTime()).toBeGreaterThan(clock.getTime());
    const rewards = await shop.t.deps.rewards.forWallet(claim!.wallet_address);
    expect(rewards.randomAirdrops).toBe(centsToLamports(5_000, SOL_PRICE).toString());
  });
});
