import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, type AdminDeleted } from '#common/schemas/admin';
import { apiClient } from '#web/lib/api-client';
import { adminOrderKeys } from './orders-keys';

/** DELETE /api/admin/orders/:id. */
export function deleteOrder(id: string): Promise<AdminDeleted> {
  return apiClient.delete<AdminDeleted>(ADMIN_API.order(id));
}

/**
 * `onDeleted` is given here, not to `mutate`: the deleted order's card may unmount before the
 * answer arrives (the live event can refresh the list first), and `mutate`'s own callbacks do not
 * run after an unmount; these do.
 */
export function useDeleteOrder(options: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrder,
    onSuccess: async () => {
      options.onDeleted?.();
      await queryClient.invalidateQueries({ queryKey: adminOrderKeys.all });
    },
  });
}
