import type { RewardPool } from '#common/rewards';
import type { AppDeps } from '../deps';
import { openRewardPools } from '../modules/airdrops/reward-pools.service';

/**
 * The demo shop's opening reward pools, so that 'Process Airdrop' pays the local ledger's holders
 * on a fresh `npm start` (a new shop has no orders yet). Local ledger with SEED_DEMO only; written
 * once per pool (a unique index), whatever the restarts or instances. Play money on a play chain.
 */
export const DEMO_OPENING_POOLS_CENTS: Record<RewardPool, number> = { buyback: 250_000, random: 50_000 };

export async function seedDemoRewardPools(
  deps: Pick<AppDeps, 'database' | 'config' | 'logger'>,
): Promise<void> {
  if (!deps.config.solana.localLedger) return;
  const opened = await openRewardPools(deps.database.db, DEMO_OPENING_POOLS_CENTS);
  if (opened.length > 0) deps.logger.info({ pools: DEMO_OPENING_POOLS_CENTS }, 'demo reward pools opened');
}
