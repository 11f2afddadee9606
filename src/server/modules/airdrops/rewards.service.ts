import type { Rewards } from '#common/schemas/wallet';
import type { Db } from '#server/db/client';
import { createAirdropsRepository } from './airdrops.repository';

/**
 * A wallet's holder rewards (spec §7 rewards): what the airdrops paid it, by kind, from
 * airdrop_claims (landed transfers only), and its rank among eligible holders in the latest holder
 * snapshot (absent beyond 50).
 */
export function createRewardsService(deps: { db: Db }) {
  const repo = createAirdropsRepository(deps.db);
  return {
    async forWallet(walletAddress: string): Promise<Rewards> {
      const [totals, rank] = await Promise.all([
        repo.totalsForWallet(walletAddress),
        repo.rankInLatestSnapshot(walletAddress),
      ]);
      return {
        walletAddress,
        totalEarned: totals.total,
        randomAirdrops: totals.random,
        top50Rewards: totals.top50,
        rank,
        airdropCount: Number(totals.count),
        lastAirdropAt: totals.last ? new Date(totals.last).toISOString() : null,
      };
    },
  };
}

export type RewardsService = ReturnType<typeof createRewardsService>;
