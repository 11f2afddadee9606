import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { Product } from '#common/schemas/product';
import { apiClient } from '#web/lib/api-client';
import { adminProductKeys } from './products-keys';

/** GET /api/admin/products/:id (404 when it does not exist). */
export function getAdminProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return apiClient.get<Product>(ADMIN_API.product(id), { signal });
}

export function adminProductQueryOptions(id: string) {
  return queryOptions({
    queryKey: adminProductKeys.detail(id),
    queryFn: ({ signal }) => getAdminProduct(id, signal),
    // The form copies the product once; a background refetch must not reset what the admin typed.
    staleTime: Infinity,
  });
}

export function useAdminProduct(id: string) {
  return useQuery(adminProductQueryOptions(id));
}
