import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Product } from '#common/schemas/product';
import { apiClient } from '#web/lib/api-client';
import { catalogKeys } from './catalog-keys';
import type { LoadedProductPages } from './get-products';

/** GET /api/products/:id (404 NOT_FOUND when it does not exist). */
export function getProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return apiClient.get<Product>(`/api/products/${encodeURIComponent(id)}`, { signal });
}

/** The product as a loaded list already has it, so a card opens its modal with no wait. */
function fromLoadedLists(queryClient: QueryClient, id: string): Product | undefined {
  for (const [, data] of queryClient.getQueriesData<LoadedProductPages>({ queryKey: catalogKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const found = page.products.find((p) => p.id === id);
      if (found) return found;
    }
  }
  return undefined;
}

export function productQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogKeys.detail(id),
    queryFn: ({ signal }) => getProduct(id, signal),
  });
}

/** One product (the open modal); refetched whenever a catalogue event invalidates ['products']. */
export function useProduct(id: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    ...productQueryOptions(id ?? ''),
    enabled: Boolean(id),
    placeholderData: () => (id ? fromLoadedLists(queryClient, id) : undefined),
  });
}
