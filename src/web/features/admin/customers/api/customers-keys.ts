import type { CUSTOMER_SORTS } from '#common/schemas/admin-customers';

export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

export interface CustomerFilters {
  search: string;
  sort: CustomerSort;
  page: number;
}

/** Query keys of the customers screen; customers derive from orders, so order events refresh them. */
export const customerKeys = {
  all: ['admin', 'customers'] as const,
  list: (filters: CustomerFilters) => [...customerKeys.all, 'list', filters] as const,
};
