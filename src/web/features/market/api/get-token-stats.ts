import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TokenStatsResponse } from '#common/schemas/market';
import { apiClient } from '#web/lib/api-client';
import { marketKeys } from './market-keys';

/** Spec §7: token stats are polled every 30 s, not refreshed on focus, retried up to 3 times. */
export const TOKEN_STATS_REFRESH_MS = 30_000;
export const TOKEN_STATS_RETRIES = 3;

/** GET /api/market/token-stats: pairs[0] has priceUsd, priceChange.h24, volume.h24 and fdv. */
export function getTokenStats(signal?: AbortSignal): Promise<TokenStatsResponse> {
  return apiClient.get<TokenStatsResponse>('/api/market/token-stats', { signal });
}

export function tokenStatsQueryOptions() {
  return queryOptions({
    queryKey: marketKeys.tokenStats(),
    queryFn: ({ signal }) => getTokenStats(signal),
    refetchInterval: TOKEN_STATS_REFRESH_MS,
    refetchOnWindowFocus: false,
    retry: TOKEN_STATS_RETRIES,
    staleTime: TOKEN_STATS_REFRESH_MS,
  });
}

/** The first pair of the token stats (what the ticker and the airdrop progress show). */
export function useTokenStats() {
  const { data, isPending, isError } = useQuery(tokenStatsQueryOptions());
  return { pair: data?.pairs[0], source: data?.source, isPending, isError };
}
