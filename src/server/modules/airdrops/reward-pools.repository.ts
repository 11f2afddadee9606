import { sql } from 'kysely';
import type { RewardPool } from '#common/rewards';
import type { Db } from '#server/db/client';

/**
 * The reward pools' ledger (reward_pool_entries), its one writer: credits from orders (once per
 * order and pool), the demo's opening balances (once per pool), a run's payout (once per run and
 * pool). A pool's balance is the sum of its rows.
 */
export function createRewardPoolsRepository(db: Db) {
  return {
    async insertOrderCredits(orderId: string, credits: Array<{ pool: RewardPool; cents: number }>) {
      if (credits.length === 0) return;
      await db
        .insertInto('reward_pool_entries')
        .values(
          credits.map((c) => ({ pool: c.pool, amount_cents: c.cents, source: 'order', order_id: orderId })),
        )
        .onConflict((oc) => oc.constraint('reward_pool_entries_order_once').doNothing())
        .execute();
    },

    /** The pools written now (an opening already there is left as it is). */
    async insertOpenings(openings: Record<RewardPool, number>): Promise<RewardPool[]> {
      const rows = await db
        .insertInto('reward_pool_entries')
        .values(
          Object.entries(openings).map(([pool, cents]) => ({
            pool: pool as RewardPool,
            amount_cents: cents,
            source: 'opening' as const,
          })),
        )
        .onConflict((oc) => oc.column('pool').where(sql.ref('source'), '=', 'opening').doNothing())
        .returning('pool')
        .execute();
      return rows.map((r) => r.pool);
    },

    async insertPayout(runId: string, pool: RewardPool, cents: number) {
      await db
        .insertInto('reward_pool_entries')
        .values({ pool, amount_cents: -cents, source: 'payout', run_id: runId })
        .execute();
    },

    async balance(pool: RewardPool): Promise<number> {
      const row = await db
        .selectFrom('reward_pool_entries')
        .select(sql<string>`coalesce(sum(amount_cents), 0)::text`.as('total'))
        .where('pool', '=', pool)
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },
  };
}
