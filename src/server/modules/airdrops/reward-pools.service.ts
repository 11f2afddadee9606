import { poolShareCents, REWARD_POOLS, type RewardPool } from '#common/rewards';
import type { Db } from '#server/db/client';
import { createRewardPoolsRepository } from './reward-pools.repository';

/**
 * The revenue split (docs/rewards.md §1): a confirmed order credits its shares to the
 * buyback/liquidity pool and the random-holder pool, once, in the caller's transaction, so an
 * order never exists without its credits. The caller leaves out a failed (refunded) order.
 */
export async function creditOrderToPools(db: Db, order: { id: string; totalCents: number }): Promise<void> {
  const credits = REWARD_POOLS.map((pool) => ({
    pool,
    cents: poolShareCents(order.totalCents, pool),
  })).filter((c) => c.cents > 0);
  await createRewardPoolsRepository(db).insertOrderCredits(order.id, credits);
}

/**
 * Opening balances (the demo shop's, src/server/seed/demo-reward-pools.ts): written once per pool
 * whatever the restarts or instances (a unique index). Returns the pools opened now.
 */
export async function openRewardPools(db: Db, openings: Record<RewardPool, number>): Promise<RewardPool[]> {
  return createRewardPoolsRepository(db).insertOpenings(openings);
}
