import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExplorerTransaction } from '#common/schemas/chain';
import { apiClient } from '#web/lib/api-client';

/** GET /api/chain/transactions/:signature: one transaction of the local ledger. */
export function explorerTransactionQueryOptions(signature: string) {
  return queryOptions({
    queryKey: ['chain', 'transaction', signature] as const,
    queryFn: ({ signal }) =>
      apiClient.get<ExplorerTransaction>(`/api/chain/transactions/${encodeURIComponent(signature)}`, {
        signal,
      }),
    retry: false,
  });
}

export function useExplorerTransaction(signature: string) {
  return useQuery(explorerTransactionQueryOptions(signature));
}
