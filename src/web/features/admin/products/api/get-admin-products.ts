import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API, type Page } from '#common/schemas/admin';
import type { Product } from '#common/schemas/product';
import { apiClient } from '#web/lib/api-client';
import { adminProductKeys, type AdminProductFilters } from './products-keys';

/** GET /api/admin/products: newest first, filtered and paged on the server. */
export function getAdminProducts(filters: AdminProductFilters, signal?: AbortSignal): Promise<Page<Product>> {
  return apiClient.get<Page<Product>>(ADMIN_API.products, {
    query: {
      gender: filters.gender,
      search: filters.search,
      category: filters.category === 'all' ? undefined : filters.category,
      page: filters.page,
    },
    signal,
  });
}

export function adminProductsQueryOptions(filters: AdminProductFilters) {
  return queryOptions({
    queryKey: adminProductKeys.list(filters),
    queryFn: ({ signal }) => getAdminProducts(filters, signal),
  });
}

/** The products table; the previous results stay while a new filter loads. */
export function useAdminProducts(filters: AdminProductFilters) {
  return useQuery({ ...adminProductsQueryOptions(filters), placeholderData: keepPreviousData });
}
