import type { OrderStatus } from '#common/schemas/admin-orders';

export interface AdminOrderFilters {
  search: string;
  status: 'all' | OrderStatus;
  page: number;
}

/** Query keys of the admin orders screen, under ['admin', 'orders'] (live topic 'admin:orders'). */
export const adminOrderKeys = {
  all: ['admin', 'orders'] as const,
  lists: () => [...adminOrderKeys.all, 'list'] as const,
  list: (filters: AdminOrderFilters) => [...adminOrderKeys.lists(), filters] as const,
};
