import { z } from 'zod';
import {
  LOCAL_MARKET,
  MARKET_CACHE_SECONDS,
  type SolPriceResponse,
  type TokenStatsResponse,
} from '#common/schemas/market';
import type { Config } from '#server/config';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import type { SettingsService } from '../settings/settings.service';

/** Upstream wire formats: only the fields we read, validated. */
const DexTokenPairsSchema = z.object({
  pairs: z
    .array(
      z.object({
        priceUsd: z.union([z.string(), z.number()]).transform(String),
        priceChange: z.object({ h24: z.coerce.number() }).partial().optional(),
        volume: z.object({ h24: z.coerce.number() }).partial().optional(),
        fdv: z.coerce.number().optional(),
      }),
    )
    .nullable(),
});
const SimplePriceSchema = z.object({ solana: z.object({ usd: z.number().positive() }) });

export interface MarketService {
  tokenStats(): Promise<TokenStatsResponse>;
  solPrice(): Promise<SolPriceResponse>;
}

interface CacheEntry<T> {
  value: T;
  expiresAt: number;
}

/**
 * Token stats (DEX token-pairs API) and the SOL price (simple-price API), each cached 60 s, with a
 * timeout, one request in flight per key. With the local ledger on, fixed local prices answer.
 * The feeds' base URLs come from the admin settings (market/dex_url, market/price_url) when set
 * there, else from the configuration; the cache is keyed by URL, so a changed URL applies at once.
 */
export function createMarketService(deps: {
  config: Config;
  logger: Logger;
  settings?: Pick<SettingsService, 'getSecret'>;
  fetch?: typeof fetch;
  now?: () => number;
}): MarketService {
  const { config, logger } = deps;
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, CacheEntry<unknown>>();
  const inFlight = new Map<string, Promise<unknown>>();

  async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = cache.get(key) as CacheEntry<T> | undefined;
    if (hit && hit.expiresAt > now()) return hit.value;
    const pending = inFlight.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const promise = load()
      .then((value) => {
        cache.set(key, { value, expiresAt: now() + MARKET_CACHE_SECONDS * 1000 });
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  }

  async function getJson(url: string, failure: string): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(config.market.timeoutMs),
      });
    } catch (err) {
      logger.warn({ err, url }, 'market feed unreachable');
      throw new AppError('UNAVAILABLE', failure);
    }
    if (!res.ok) {
      logger.warn({ url, status: res.status }, 'market feed error');
      throw new AppError('UNAVAILABLE', `HTTP error! status: ${res.status}`);
    }
    try {
      return await res.json();
    } catch {
      throw new AppError('UNAVAILABLE', 'Invalid response format');
    }
  }

  const feedUrl = async (keyName: 'dex_url' | 'price_url', fallback: string): Promise<string> =>
    ((await deps.settings?.getSecret('market', keyName)) ?? fallback).replace(/\/+$/, '');

  return {
    tokenStats: async () => {
      // The local ledger's mint has no market: its fixed prices answer below, whatever the URL.
      const mint = config.solana.tokenMint ?? 'local';
      if (!config.solana.localLedger && !config.solana.tokenMint) {
        throw new AppError('UNAVAILABLE', 'Failed to fetch token data');
      }
      const url = `${await feedUrl('dex_url', config.market.dexUrl)}/${encodeURIComponent(mint)}`;
      return cached(`token-stats ${url}`, async (): Promise<TokenStatsResponse> => {
        const fetchedAt = new Date(now()).toISOString();
        if (config.solana.localLedger) {
          const t = LOCAL_MARKET.token;
          return {
            pairs: [
              {
                priceUsd: t.priceUsd,
                priceChange: { h24: t.priceChangeH24 },
                volume: { h24: t.volumeH24 },
                fdv: t.fdv,
              },
            ],
            source: 'local',
            fetchedAt,
          };
        }
        const body = await getJson(url, 'Failed to fetch token data');
        const parsed = DexTokenPairsSchema.safeParse(body);
        const first = parsed.success ? parsed.data.pairs?.[0] : undefined;
        if (!first) throw new AppError('UNAVAILABLE', 'Invalid response format');
        return {
          pairs: [
            {
              priceUsd: first.priceUsd,
              priceChange: { h24: first.priceChange?.h24 ?? 0 },
              volume: { h24: first.volume?.h24 ?? 0 },
              fdv: first.fdv ?? 0,
            },
          ],
          source: 'live',
          fetchedAt,
        };
      });
    },
    solPrice: async () => {
      const url = `${await feedUrl('price_url', config.market.priceUrl)}/simple/price?ids=solana&vs_currencies=usd`;
      return cached(`sol-price ${url}`, async (): Promise<SolPriceResponse> => {
        const fetchedAt = new Date(now()).toISOString();
        if (config.solana.localLedger)
          return { solana: { usd: LOCAL_MARKET.solUsd }, source: 'local', fetchedAt };
        const body = await getJson(url, 'Failed to fetch SOL price');
        const parsed = SimplePriceSchema.safeParse(body);
        if (!parsed.success) throw new AppError('UNAVAILABLE', 'Failed to get SOL price');
        return { solana: { usd: parsed.data.solana.usd }, source: 'live', fetchedAt };
      });
    },
  };
}
