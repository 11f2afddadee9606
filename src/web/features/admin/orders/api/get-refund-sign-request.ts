import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { RefundSignRequest } from '#common/schemas/refund';
import { apiClient } from '#web/lib/api-client';
import { adminOrderKeys } from './orders-keys';

/**
 * GET /api/admin/refunds/:id/sign-request: a crypto refund waiting for the shop wallet's signature
 * (no key on the server), as a Solana Pay transaction request for the admin's wallet. Its link is
 * signed for an hour; it is asked for again before then.
 */
export function getRefundSignRequest(refundId: string): Promise<RefundSignRequest> {
  return apiClient.get<RefundSignRequest>(ADMIN_API.refundSignRequest(refundId));
}

export const refundSignRequestQueryOptions = (refundId: string) =>
  queryOptions({
    queryKey: [...adminOrderKeys.all, 'refund-sign-request', refundId] as const,
    queryFn: () => getRefundSignRequest(refundId),
    staleTime: 30 * 60_000,
    refetchInterval: 30 * 60_000,
  });

export function useRefundSignRequest(refundId: string, enabled: boolean) {
  return useQuery({ ...refundSignRequestQueryOptions(refundId), enabled });
}
