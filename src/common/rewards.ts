/**
 * The holder-rewards rules (spec §1, §2 Ecosystem and Rewards, §9), one owner for the server that
 * pays them and the page that explains them. See docs/rewards.md for worked examples.
 *
 * - Of every confirmed order's USD total, 10% goes to the buyback/liquidity pool, 10% to the
 *   random-holder pool, 80% to operations and growth.
 * - Daily, the top 50 eligible holders share 90% of the liquidity pool in proportion to their
 *   holdings; a share under 1 USD is not sent and stays in the pool.
 * - Random airdrops start once the market cap (fdv) reaches 2,000,000 USD; they come at
 *   exponentially distributed intervals averaging 12 hours; the winner is drawn with chance
 *   proportional to holdings and receives the random-holder pool.
 */
export const REVENUE_SPLIT_PERCENT = { buyback: 10, random: 10, operations: 80 } as const;

export type RewardPool = 'buyback' | 'random';
export const REWARD_POOLS: readonly RewardPool[] = ['buyback', 'random'];

export const TOP_HOLDERS = 50;
export const TOP_HOLDERS_SHARE_PERCENT = 90;
/** The least a holder is sent in one airdrop; a smaller share waits in the pool. */
export const MIN_AIRDROP_CENTS = 100;
export const RANDOM_AIRDROP_MEAN_HOURS = 12;

/** One pool's share of an order, in whole cents, rounded down (the remainder stays with operations). */
export function poolShareCents(orderTotalCents: number, pool: RewardPool): number {
  return Math.floor((orderTotalCents * REVENUE_SPLIT_PERCENT[pool]) / 100);
}

/** What the top 50 share of a liquidity-pool balance: 90%, in whole cents, rounded down. */
export function top50BudgetCents(poolCents: number): number {
  return poolCents > 0 ? Math.floor((poolCents * TOP_HOLDERS_SHARE_PERCENT) / 100) : 0;
}

export interface Holding {
  owner: string;
  /** Token base units. */
  amount: bigint;
}

export interface Share extends Holding {
  cents: number;
  /** Under the 1 USD minimum: not sent, the cents stay in the pool. */
  skipped: boolean;
}

/**
 * The top holders' shares of `budgetCents`, in proportion to their holdings, rounded down to the
 * cent (so the shares never add up to more than the budget). Shares under the minimum are skipped.
 */
export function top50Shares(budgetCents: number, holders: readonly Holding[]): Share[] {
  const total = holders.reduce((sum, h) => sum + h.amount, 0n);
  if (total === 0n || budgetCents <= 0) return holders.map((h) => ({ ...h, cents: 0, skipped: true }));
  return holders.map((h) => {
    const cents = Number((BigInt(budgetCents) * h.amount) / total);
    return { ...h, cents, skipped: cents < MIN_AIRDROP_CENTS };
  });
}

/** A USD price as integer micro-dollars (6 decimals), the unit the payout arithmetic uses. */
export function usdToMicros(usd: number): bigint {
  return BigInt(Math.round(usd * 1_000_000));
}

/** Cents worth of SOL at `solPriceMicros` per SOL, in lamports, rounded down. */
export function centsToLamports(cents: number, solPriceMicros: bigint): bigint {
  if (solPriceMicros <= 0n) throw new Error('SOL price must be positive');
  return (BigInt(cents) * 10_000n * 1_000_000_000n) / solPriceMicros;
}

/** The wait until the next random airdrop: exponential with a mean of 12 hours; `u` in [0, 1). */
export function randomAirdropDelayMs(u: number): number {
  const mean = RANDOM_AIRDROP_MEAN_HOURS * 3_600_000;
  return Math.max(0, Math.round(-Math.log1p(-Math.min(Math.max(u, 0), 0.999_999_999)) * mean));
}

/** The holder at `u` (in [0, 1)) of the holdings laid end to end: chance proportional to holdings. */
export function pickByHoldings<T extends Holding>(holders: readonly T[], u: number): T | null {
  const total = holders.reduce((sum, h) => sum + h.amount, 0n);
  if (total === 0n) return null;
  const scale = 2n ** 53n;
  let point = (BigInt(Math.floor(Math.min(Math.max(u, 0), 1 - 2 ** -53) * 2 ** 53)) * total) / scale;
  for (const h of holders) {
    if (point < h.amount) return h;
    point -= h.amount;
  }
  return holders.at(-1) ?? null;
}
