import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { Product, ProductInput } from '#common/schemas/product';
import { apiClient } from '#web/lib/api-client';
import { adminProductKeys } from './products-keys';

/** POST /api/admin/products -> 201 Product. */
export function createProduct(input: ProductInput): Promise<Product> {
  return apiClient.post<Product>(ADMIN_API.products, input);
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: adminProductKeys.all })]);
    },
  });
}
