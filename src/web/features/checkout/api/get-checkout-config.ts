import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CheckoutConfigResponse } from '#common/schemas/checkout';
import { apiClient } from '#web/lib/api-client';
import { checkoutKeys } from './checkout-keys';

/** GET /api/checkout/config: which payment methods the server can take right now. */
export function getCheckoutConfig(signal?: AbortSignal): Promise<CheckoutConfigResponse> {
  return apiClient.get<CheckoutConfigResponse>('/api/checkout/config', { signal });
}

export function checkoutConfigQueryOptions() {
  return queryOptions({
    queryKey: checkoutKeys.config(),
    queryFn: ({ signal }) => getCheckoutConfig(signal),
    staleTime: 60_000,
  });
}

export function useCheckoutConfig({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...checkoutConfigQueryOptions(), enabled });
}
