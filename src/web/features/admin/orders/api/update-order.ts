import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminOrder, type AdminOrderPage, type OrderStatus } from '#common/schemas/admin-orders';
import { apiClient } from '#web/lib/api-client';
import { adminOrderKeys } from './orders-keys';

export interface OrderUpdateInput {
  id: string;
  status: OrderStatus | '';
  trackingNumber: string;
}

/** PATCH /api/admin/orders/:id: as the spec's client, status and tracking number only when non-empty. */
export function updateOrder({ id, status, trackingNumber }: OrderUpdateInput): Promise<AdminOrder> {
  const body: { status?: OrderStatus; trackingNumber?: string } = {};
  if (status !== '') body.status = status;
  if (trackingNumber.trim() !== '') body.trackingNumber = trackingNumber.trim();
  return apiClient.patch<AdminOrder>(ADMIN_API.order(id), body);
}

export function useUpdateOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrder,
    onSuccess: async (order) => {
      // The saved order shows at once; the refetch then brings the lists in line.
      queryClient.setQueriesData<AdminOrderPage>({ queryKey: adminOrderKeys.lists() }, (page) =>
        page ? { ...page, items: page.items.map((o) => (o.id === order.id ? order : o)) } : page,
      );
      await queryClient.invalidateQueries({ queryKey: adminOrderKeys.all });
    },
  });
}
