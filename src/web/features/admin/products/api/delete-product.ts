import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, type AdminDeleted } from '#common/schemas/admin';
import { apiClient } from '#web/lib/api-client';
import { adminProductKeys } from './products-keys';

/** DELETE /api/admin/products/:id (409 while the product is in an open checkout). */
export function deleteProduct(id: string): Promise<AdminDeleted> {
  return apiClient.delete<AdminDeleted>(ADMIN_API.product(id));
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: async (_result, id) => {
      queryClient.removeQueries({ queryKey: adminProductKeys.detail(id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminProductKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: adminProductKeys.categories() }),
      ]);
    },
  });
}
