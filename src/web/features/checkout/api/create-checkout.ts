import { useMutation } from '@tanstack/react-query';
import type { CheckoutInput, CheckoutResponse } from '#common/schemas/checkout';
import { apiClient } from '#web/lib/api-client';

/**
 * POST /api/checkout: product ids, options, quantities and the shipping info. Never amounts: the
 * server prices everything and answers with its own amounts (and, for a card, the provider's page).
 */
export function createCheckout(input: CheckoutInput): Promise<CheckoutResponse> {
  return apiClient.post<CheckoutResponse>('/api/checkout', input);
}

export function useCreateCheckout() {
  return useMutation({ mutationFn: createCheckout });
}
