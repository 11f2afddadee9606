import type { Category, Gender } from '#common/schemas/product';

export interface AdminProductFilters {
  gender: 'all' | Gender;
  search: string;
  category: 'all' | Category;
  page: number;
}

/**
 * Query keys of the admin products screens, under ['admin', 'products'] (invalidated by live events
 * on 'admin:products', see lib/live-events.ts).
 */
export const adminProductKeys = {
  all: ['admin', 'products'] as const,
  lists: () => [...adminProductKeys.all, 'list'] as const,
  list: (filters: AdminProductFilters) => [...adminProductKeys.lists(), filters] as const,
  categories: () => [...adminProductKeys.all, 'categories'] as const,
  detail: (id: string) => [...adminProductKeys.all, 'detail', id] as const,
};
