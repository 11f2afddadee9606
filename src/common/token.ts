/**
 * The AELO token: its symbol, where to see and buy it (by its mint, which comes from the server's
 * configuration through GET /api/shop), and the spec's Buy Token amount rules (§5, §9).
 */
import { parseDollarsToCents } from './money';

export const TOKEN_SYMBOL = 'AELO';

/** The token's price chart on a DEX screener (How to Buy, step 3). */
export function tokenChartUrl(mint: string): string {
  return `https://dexscreener.com/solana/${mint}`;
}

/** A decentralised exchange with SOL -> AELO preselected. */
export function tokenBuyUrl(mint: string): string {
  return `https://jup.ag/swap/SOL-${mint}`;
}

/** How much SOL How to Buy advises holding before buying (fees and a first purchase). */
export const MIN_ADVISED_SOL = 0.1;

// Buy Token amount ----------------------------------------------------------------------------------

export const TOKEN_PURCHASE_MIN_USD = 10;
export const TOKEN_PURCHASE_MAX_USD = 50_000;
export const TOKEN_PURCHASE_DEFAULT_USD = '100';

export const TOKEN_PURCHASE_MESSAGES = {
  min: 'Minimum purchase amount is $10',
  max: 'Maximum purchase amount is $50,000',
} as const;

/**
 * What the amount field keeps of what was typed: digits and one dot, at most 2 decimals. Input
 * that would break the rule is ignored (the previous value stays), as the spec says.
 */
export function acceptAmountInput(previous: string, typed: string): string {
  if (!/^\d*\.?\d{0,2}$/.test(typed)) return previous;
  return typed;
}

/** The amount's error, if any: null when it can be paid (empty gives no message but cannot be paid). */
export function tokenPurchaseAmountError(text: string): string | null {
  if (text === '' || text === '.') return null;
  const value = Number(text);
  if (!Number.isFinite(value)) return null;
  if (value < TOKEN_PURCHASE_MIN_USD) return TOKEN_PURCHASE_MESSAGES.min;
  if (value > TOKEN_PURCHASE_MAX_USD) return TOKEN_PURCHASE_MESSAGES.max;
  return null;
}

/** The amount in cents when it can be paid, else null (empty, malformed or out of range). */
export function tokenPurchaseCents(text: string): number | null {
  const cents = parseDollarsToCents(text);
  if (cents === null) return null;
  if (cents < TOKEN_PURCHASE_MIN_USD * 100 || cents > TOKEN_PURCHASE_MAX_USD * 100) return null;
  return cents;
}
