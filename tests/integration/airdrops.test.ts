/**
 * The holder-rewards engine on the local ledger (litesvm), checked with unmodified web3.js: who
 * the top 50 are (program-derived, program-owned, executable and listed owners excluded), what
 * each is paid (90% of the pool in proportion, shares under 1 USD carried over), that a crash or
 * an RPC error in the middle of a run never pays a holder twice nor forgets one, that two
 * instances never run the same airdrop, and that a cluster over HTTP gives the same holders.
 * Random airdrops: random-airdrops.test.ts.
 */
import { createDefaultRpcTransport, type RpcTransport } from '@solana/kit';
import { centsToLamports } from '#common/rewards';
import { loadConfig } from '#server/config';
import { openDatabase } from '#server/db/client';
import { onCrashPoint } from '#server/lib/crash-point';
import { createLogger } from '#server/lib/logger';
import { readTokenAccounts } from '#server/modules/airdrops/holder-snapshot';
import { createChainService } from '#server/modules/chain/chain.service';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { stopShop, type RunningShop } from '../helpers/shop-server';
import { json, signInClients } from './admin-test-kit';
import {
  balances,
  creditPool,
  engineFor,
  expectedPayouts,
  expectPaidOnce,
  poolBalance,
  SOL_PRICE,
  startRewardsShop,
} from './airdrop-test-kit';

warnIfPostgresSkipped();

describe.each(BACKENDS)('holder-rewards engine (%s)', (backend) => {
  let shop: RunningShop | undefined;
  afterEach(async () => {
    if (shop) await stopShop(shop);
    shop = undefined;
  });

  async function start() {
    const started = await startRewardsShop(backend);
    shop = started.shop;
    return started;
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
    for (const point of ['airdrops:batch-sent', 'airdrops:batch-recorded'] as const) {
      await creditPool(shop, 'buyback', 20_000);
      const expected = expectedPayouts(holders, await poolBalance(shop, 'buyback'));
      const before = await balances(connection, everyone);
      let crashed = false;
      // The engine's own crash point, thrown at in process instead of killing it (crash-point.ts).
      const off = onCrashPoint((name, { batchNo }) => {
        if (name === point && batchNo === 2 && !crashed) {
          crashed = true;
          throw new Error(`crash at ${point} batch 2`);
        }
      });
      try {
        await expect(engineFor(shop).run()).rejects.toThrow(`crash at ${point} batch 2`);
      } finally {
        off();
      }
      const midway = await balances(connection, everyone);
      const paidMidway = [...midway].filter(([o, v]) => v !== before.get(o)).length;
      expect(paidMidway).toBe(point === 'airdrops:batch-sent' ? 16 : 8);

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
      // Both at the daily time: one run for the day, whoever gets there first. (The shop started
      // the day before: a new shop's first day's slot, before it started, is never run.)
      const noon = () => new Date(`${new Date().toISOString().slice(0, 10)}T23:59:00Z`);
      await shop.t.deps.database.db
        .insertInto('airdrop_first_seen')
        .values({ at: new Date(noon().getTime() - 86_400_000) })
        .execute();
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
});
