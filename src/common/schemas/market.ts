import { z } from 'zod';

/** Where market figures came from: a live feed, or the fixed local prices of the local ledger. */
export const MarketSourceSchema = z.enum(['live', 'local']);
export type MarketSource = z.infer<typeof MarketSourceSchema>;

/** The spec's token-stats shape: pairs[0].priceUsd, priceChange.h24, volume.h24, fdv. */
export const TokenPairSchema = z.object({
  priceUsd: z.string(),
  priceChange: z.object({ h24: z.number() }),
  volume: z.object({ h24: z.number() }),
  fdv: z.number(),
});
export type TokenPair = z.infer<typeof TokenPairSchema>;

export const TokenStatsResponseSchema = z.object({
  pairs: z.array(TokenPairSchema).min(1),
  source: MarketSourceSchema,
  fetchedAt: z.string(),
});
export type TokenStatsResponse = z.infer<typeof TokenStatsResponseSchema>;

/** The simple-price shape: { solana: { usd } }. */
export const SolPriceResponseSchema = z.object({
  solana: z.object({ usd: z.number().positive() }),
  source: MarketSourceSchema,
  fetchedAt: z.string(),
});
export type SolPriceResponse = z.infer<typeof SolPriceResponseSchema>;

/** Fixed prices served when the local ledger is on (no SOLANA_RPC_URL). Documented in the README. */
export const LOCAL_MARKET = {
  solUsd: 150,
  token: { priceUsd: '0.000420', priceChangeH24: 3.25, volumeH24: 125_430.5, fdv: 420_000 },
} as const;

export const MARKET_CACHE_SECONDS = 60;
