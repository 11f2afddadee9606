/**
 * The AELO token on Solana: its mint (contract) address and where to see and buy it. The server's
 * default token mint is the same address (its TOKEN_MINT setting can override it for payments).
 */
export const TOKEN_SYMBOL = 'AELO';

/** The token's mint address, shown on How to Buy with a copy button. */
export const TOKEN_CONTRACT_ADDRESS = 'AeLoTokenMint1111111111111111111111111111111';

/** The token's price chart on a DEX screener (How to Buy, step 3). */
export const TOKEN_CHART_URL = `https://dexscreener.com/solana/${TOKEN_CONTRACT_ADDRESS}`;

/** A decentralised exchange with SOL -> AELO preselected. */
export const TOKEN_BUY_URL = `https://jup.ag/swap/SOL-${TOKEN_CONTRACT_ADDRESS}`;

/** How much SOL How to Buy advises holding before buying (fees and a first purchase). */
export const MIN_ADVISED_SOL = 0.1;
