import { useMutation } from '@tanstack/react-query';
import type { TokenPurchaseInput, TokenPurchaseResponse } from '#common/schemas/token-sale';
import { apiClient } from '#web/lib/api-client';

/** POST /api/token-purchases: the USD amount only; the server quotes SOL and AELO itself. */
export function createTokenPurchase(input: TokenPurchaseInput): Promise<TokenPurchaseResponse> {
  return apiClient.post<TokenPurchaseResponse>('/api/token-purchases', input);
}

export function useCreateTokenPurchase() {
  return useMutation({ mutationFn: createTokenPurchase });
}
