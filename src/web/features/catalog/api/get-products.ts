import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '#common/schemas/product';
import { apiClient } from '#web/lib/api-client';
import { catalogKeys, type ProductFilters } from './catalog-keys';

export interface ProductListResponse {
  products: Product[];
}

/** GET /api/products: filtered and ordered on the server (newest first by default). */
export function getProducts(filters: ProductFilters, signal?: AbortSignal): Promise<ProductListResponse> {
  return apiClient.get<ProductListResponse>('/api/products', {
    query: { gender: filters.gender, category: filters.category, size: filters.size, sort: filters.sort },
    signal,
  });
}

export function productsQueryOptions(filters: ProductFilters) {
  return queryOptions({
    queryKey: catalogKeys.list(filters),
    queryFn: ({ signal }) => getProducts(filters, signal),
  });
}

/** The product grid. While a new filter loads, the previous results stay (dimmed by the grid). */
export function useProducts(filters: ProductFilters) {
  return useQuery({ ...productsQueryOptions(filters), placeholderData: keepPreviousData });
}
