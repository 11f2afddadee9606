/**
 * The airdrop unlock goal (spec §2 hero, §9): the first random airdrop unlocks at a 2,000,000 USD
 * market cap (fully diluted value). Progress is the market cap as a share of the goal, capped at 100%.
 */
export const AIRDROP_GOAL_USD = 2_000_000;

export interface AirdropProgress {
  /** 0 to 100. */
  percent: number;
  /** USD still missing to the goal; 0 once reached. */
  remainingUsd: number;
  /** The goal is reached: the hero shows 'Ready to Claim!'. */
  isReady: boolean;
}

export function airdropProgress(marketCapUsd: number, goalUsd: number = AIRDROP_GOAL_USD): AirdropProgress {
  const cap = Number.isFinite(marketCapUsd) && marketCapUsd > 0 ? marketCapUsd : 0;
  const percent = Math.min(100, (cap / goalUsd) * 100);
  const isReady = cap >= goalUsd;
  return { percent, remainingUsd: isReady ? 0 : goalUsd - cap, isReady };
}

/** `42.0%`: progress with one decimal, rounded down so that 100.0% only shows at the goal. */
export function formatProgressPercent(percent: number): string {
  return `${(Math.floor(percent * 10 + 1e-9) / 10).toFixed(1)}%`;
}
