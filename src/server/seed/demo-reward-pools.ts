import type { RewardPool } from '#common/rewards';
import { openRewardPools } from '../modules/airdrops/reward-pools.service';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import type { Logger } from '#server/lib/logger';

/** What the demo reward pools use of the app's services (deps.ts builds them). */
export interface DemoRewardPoolsDeps {
  config: Config;
  database: Database;
  logger: Logger;
}

/**
 * The demo shop's opening reward pools, so that 'Process Airdrop' pays the local ledger's holders
 * on a fresh `npm start` (a new shop has no orders yet). Local ledger with SEED_DEMO only; written
 * once per pool (a unique index), whatever the restarts or instances. Play money on a play chain.
 */
export const DEMO_OPENING_POOLS_CENTS: Record<RewardPool, number> = { buyback: 250_000, random: 50_000 };

export async function seedDemoRewardPools(deps: DemoRewardPoolsDeps): Promise<void> {
  if (!deps.config.solana.localLedger) return;
  const opened = await openRewardPools(deps.database.db, DEMO_OPENING_POOLS_CENTS);
  if (opened.length > 0) deps.logger.info({ pools: DEMO_OPENING_POOLS_CENTS }, 'demo reward pools opened');
}
