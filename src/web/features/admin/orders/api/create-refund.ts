import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { Refund, RefundInput } from '#common/schemas/refund';
import { apiClient } from '#web/lib/api-client';
import { adminOrderKeys } from './orders-keys';

export interface CreateRefundInput extends RefundInput {
  orderId: string;
}

/** POST /api/admin/orders/:id/refunds: without amountCents, everything still refundable. */
export function createRefund({ orderId, ...body }: CreateRefundInput): Promise<Refund> {
  return apiClient.post<Refund>(`${ADMIN_API.order(orderId)}/refunds`, body);
}

export function useCreateRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRefund,
    // The order's refunds, refunded and refundable figures come back with the lists.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminOrderKeys.all }),
  });
}
