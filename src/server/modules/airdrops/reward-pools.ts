import { poolShareCents, REWARD_POOLS, type RewardPool } from '#common/rewards';
import type { Db } from '#server/db/client';
import { toNumber } from '#server/db/sql-helpers';

/**
 * The holder-rewards ledger (reward_pool_entries): a confirmed order credits its shares of the
 * revenue split to the buyback/liquidity pool and the random-holder pool, once (unique per order
 * and pool), in the caller's transaction, so an order never exists without its credits. A failed
 * order (paid after its stock was lost, refunded) credits nothing.
 */
export async function creditOrderToPools(db: Db, order: { id: string; totalCents: number }): Promise<void> {
  const rows = REWARD_POOLS.map((pool) => ({
    pool,
    amount_cents: poolShareCents(order.totalCents, pool),
    source: 'order' as const,
    order_id: order.id,
  })).filter((r) => r.amount_cents > 0);
  if (rows.length === 0) return;
  await db
    .insertInto('reward_pool_entries')
    .values(rows)
    .onConflict((oc) => oc.constraint('reward_pool_entries_order_once').doNothing())
    .execute();
}

/** Each pool's balance in cents (credits less payouts). */
export async function poolBalances(db: Db): Promise<Record<RewardPool, number>> {
  const rows = await db
    .selectFrom('reward_pool_entries')
    .select(['pool', (eb) => eb.fn.sum<string>('amount_cents').as('total')])
    .groupBy('pool')
    .execute();
  const balances: Record<RewardPool, number> = { buyback: 0, random: 0 };
  for (const row of rows) balances[row.pool] = toNumber(row.total);
  return balances;
}
