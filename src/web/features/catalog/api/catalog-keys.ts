import type { ProductFilters } from '#common/catalog-query';

export type { ProductFilters };

/**
 * Query keys of the catalogue. Everything sits under ['products'], the prefix a live event on the
 * 'catalog' topic invalidates (lib/live-events.ts), so an admin's change reaches an open page.
 */
export const catalogKeys = {
  all: ['products'] as const,
  lists: () => [...catalogKeys.all, 'list'] as const,
  list: (filters: ProductFilters) =>
    [
      ...catalogKeys.lists(),
      {
        gender: filters.gender ?? 'all',
        category: filters.category ?? 'all',
        size: filters.size ?? 'all',
        sort: filters.sort ?? 'newest',
      },
    ] as const,
  details: () => [...catalogKeys.all, 'detail'] as const,
  detail: (id: string) => [...catalogKeys.details(), id] as const,
};
