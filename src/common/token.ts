/**
 * The AELO token: its symbol and where to see and buy it (by its mint, which comes from the server's
 * configuration through GET /api/shop).
 */
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
