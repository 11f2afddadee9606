import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SolPriceResponse } from '../../../../common/schemas/market';
import { apiClient } from '../../../lib/api-client';
import { marketKeys } from './market-keys';

/** The server caches the price for 60 s; the browser asks again at most once a minute. */
export const SOL_PRICE_STALE_MS = 60_000;

/** GET /api/market/sol-price: { solana: { usd } }. */
export function getSolPrice(signal?: AbortSignal): Promise<SolPriceResponse> {
  return apiClient.get<SolPriceResponse>('/api/market/sol-price', { signal });
}

export function solPriceQueryOptions() {
  return queryOptions({
    queryKey: marketKeys.solPrice(),
    queryFn: ({ signal }) => getSolPrice(signal),
    staleTime: SOL_PRICE_STALE_MS,
  });
}

/** SOL in USD, for the payment blocks (they show 'Failed to get SOL price' on error). */
export function useSolPrice() {
  const { data, isPending, isError, error } = useQuery(solPriceQueryOptions());
  return { usd: data?.solana.usd, source: data?.source, isPending, isError, error };
}
