import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, type AdminDeleted } from '#common/schemas/admin';
import { apiClient } from '#web/lib/api-client';
import { adminOrderKeys } from './orders-keys';

/** DELETE /api/admin/orders/:id. */
export function deleteOrder(id: string): Promise<AdminDeleted> {
  return apiClient.delete<AdminDeleted>(ADMIN_API.order(id));
}

export function useDeleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminOrderKeys.all }),
  });
}
