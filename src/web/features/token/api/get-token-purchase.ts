import { useQuery } from '@tanstack/react-query';
import type { TokenPurchaseResponse } from '#common/schemas/token-sale';
import { apiClient } from '#web/lib/api-client';
import { tokenKeys } from './token-keys';

const POLL_INTERVAL_MS = 1_000;

/** GET /api/token-purchases/:reference */
export function getTokenPurchase(reference: string, signal?: AbortSignal): Promise<TokenPurchaseResponse> {
  return apiClient.get<TokenPurchaseResponse>(`/api/token-purchases/${encodeURIComponent(reference)}`, {
    signal,
  });
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.message.toLowerCase().includes('not found');
}

/**
 * Follows a purchase on the server every second (spec §8 polling rule): an error containing 'not
 * found' is retried, any other stops; it stops once the purchase is completed or expired. The
 * server alone decides that a purchase is paid.
 */
export function useTokenPurchase(reference: string | null) {
  return useQuery({
    queryKey: tokenKeys.purchase(reference ?? ''),
    queryFn: async ({ signal }): Promise<TokenPurchaseResponse | null> => {
      try {
        return await getTokenPurchase(reference ?? '', signal);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    enabled: Boolean(reference),
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchIntervalInBackground: true,
    refetchInterval: (q) =>
      q.state.status === 'error' || (q.state.data && q.state.data.status !== 'pending')
        ? false
        : POLL_INTERVAL_MS,
  });
}
