import { useQuery } from '@tanstack/react-query';
import type { CheckoutConfigResponse } from '#common/schemas/checkout';
import { apiClient } from '#web/lib/api-client';
import { dashboardKeys } from './dashboard-keys';

/** Which payment methods shoppers can use right now (the checkout's own public answer). */
export function usePaymentMethods() {
  return useQuery({
    queryKey: [...dashboardKeys.all, 'payment-methods'],
    queryFn: ({ signal }) => apiClient.get<CheckoutConfigResponse>('/api/checkout/config', { signal }),
    staleTime: 30_000,
  });
}
