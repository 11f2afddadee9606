import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  type InfiniteData,
} from '@tanstack/react-query';
import type { ProductPage } from '#common/schemas/product';
import { apiClient } from '#web/lib/api-client';
import { catalogKeys, type ProductFilters } from './catalog-keys';

/** The grid's cache entry: the pages loaded so far, first to last. */
export type LoadedProductPages = InfiniteData<ProductPage, string | null>;

/** GET /api/products: one page, filtered and ordered on the server (newest first by default). */
export function getProducts(
  filters: ProductFilters,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<ProductPage> {
  return apiClient.get<ProductPage>('/api/products', {
    query: {
      gender: filters.gender,
      category: filters.category,
      size: filters.size,
      sort: filters.sort,
      cursor: cursor ?? undefined,
    },
    signal,
  });
}

/** The grid's pages: the first one (in the server's HTML), then one more per Show more. */
export function productsQueryOptions(filters: ProductFilters) {
  return infiniteQueryOptions({
    queryKey: catalogKeys.list(filters),
    queryFn: ({ signal, pageParam }) => getProducts(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The product grid. While a new filter loads, the previous results stay (dimmed by the grid). */
export function useProducts(filters: ProductFilters) {
  return useInfiniteQuery({ ...productsQueryOptions(filters), placeholderData: keepPreviousData });
}
