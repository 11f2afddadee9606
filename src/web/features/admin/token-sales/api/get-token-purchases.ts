import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { AdminTokenPurchasesResponse } from '#common/schemas/token-sale';
import { apiClient } from '#web/lib/api-client';
import { tokenSalesKeys, type TokenSalesFilters } from './token-sales-keys';

/** GET /api/admin/token-purchases: Buy Token purchases (by status, paged) and completed totals. */
export function getTokenPurchases(
  filters: TokenSalesFilters,
  signal?: AbortSignal,
): Promise<AdminTokenPurchasesResponse> {
  return apiClient.get<AdminTokenPurchasesResponse>(ADMIN_API.tokenPurchases, {
    query: { status: filters.status, page: filters.page },
    signal,
  });
}

export function tokenPurchasesQueryOptions(filters: TokenSalesFilters) {
  return queryOptions({
    queryKey: tokenSalesKeys.list(filters),
    queryFn: ({ signal }) => getTokenPurchases(filters, signal),
    // Purchases complete on the chain, not through an admin action: look again every 10 s.
    refetchInterval: 10_000,
  });
}

export function useTokenPurchases(filters: TokenSalesFilters) {
  return useQuery({ ...tokenPurchasesQueryOptions(filters), placeholderData: keepPreviousData });
}
