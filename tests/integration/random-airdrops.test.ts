/**
 * Random airdrops on the local ledger: nothing below the market-cap goal; above it the next time is
 * drawn (seeded here) and stored, so a restart keeps it; when due, the holder drawn by holdings is
 * paid the random pool, checked on-chain with web3.js and in the wallet's rewards figures.
 */
import { centsToLamports } from '#common/rewards';
import { LOCAL_MARKET } from '#common/schemas/market';
import type { MarketService } from '#server/modules/market/market.service';
import { seededRandom } from '../helpers/seeded-random';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { stopShop, type RunningShop } from '../helpers/shop-server';
import {
  balances,
  creditPool,
  engineFor,
  poolBalance,
  SOL_PRICE,
  startRewardsShop,
} from './airdrop-test-kit';

warnIfPostgresSkipped();

describe.each(BACKENDS)('random airdrops (%s)', (backend) => {
  let shop: RunningShop | undefined;
  afterEach(async () => {
    if (shop) await stopShop(shop);
    shop = undefined;
  });

  it('random airdrops wait for the market-cap goal, keep their schedule across restarts, and pay the drawn holder the pool', async () => {
    const started = await startRewardsShop(backend);
    shop = started.shop;
    const running = started.shop;
    const { holders, connection, everyone } = started;
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
    const engine = () => engineFor(running, { market, random, now: () => clock });
    const db = running.t.deps.database.db;
    await creditPool(running, 'random', 5_000);

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
    expect(await poolBalance(running, 'random')).toBe(0);
    const next = new Date(
      (await db.selectFrom('airdrop_schedule').selectAll().executeTakeFirstOrThrow()).next_at,
    );
    expect(next.getTime()).toBeGreaterThan(clock.getTime());
    const rewards = await running.t.deps.rewards.forWallet(claim!.wallet_address);
    expect(rewards.randomAirdrops).toBe(centsToLamports(5_000, SOL_PRICE).toString());
  });
});
