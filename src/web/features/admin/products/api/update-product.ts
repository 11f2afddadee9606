import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { Product, ProductInput } from '#common/schemas/product';
import { apiClient } from '#web/lib/api-client';
import { adminProductKeys } from './products-keys';

/** PUT /api/admin/products/:id: a full replacement -> Product. */
export function updateProduct({ id, input }: { id: string; input: ProductInput }): Promise<Product> {
  return apiClient.put<Product>(ADMIN_API.product(id), input);
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: async (product) => {
      queryClient.setQueryData(adminProductKeys.detail(product.id), product);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminProductKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: adminProductKeys.categories() }),
      ]);
    },
  });
}
