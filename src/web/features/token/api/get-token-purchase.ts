import type { TokenPurchaseResponse } from '#common/schemas/token-sale';
import { apiClient } from '#web/lib/api-client';
import { usePolledStatus } from '#web/lib/use-polled-status';
import { tokenKeys } from './token-keys';

/** GET /api/token-purchases/:reference */
export function getTokenPurchase(reference: string, signal?: AbortSignal): Promise<TokenPurchaseResponse> {
  return apiClient.get<TokenPurchaseResponse>(`/api/token-purchases/${encodeURIComponent(reference)}`, {
    signal,
  });
}

/**
 * Follows a purchase on the server every second (spec §8 polling rule) until it is completed or
 * expired. The server alone decides that a purchase is paid.
 */
export function useTokenPurchase(reference: string | null) {
  return usePolledStatus({
    queryKey: tokenKeys.purchase(reference ?? ''),
    request: (signal) => getTokenPurchase(reference ?? '', signal),
    enabled: Boolean(reference),
    isSettled: (data) => data.status !== 'pending',
  });
}
