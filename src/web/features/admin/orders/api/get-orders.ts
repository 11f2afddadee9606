import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminOrderPage } from '#common/schemas/admin-orders';
import { apiClient } from '#web/lib/api-client';
import { adminOrderKeys, type AdminOrderFilters } from './orders-keys';

/** GET /api/admin/orders: newest first, searched and filtered on the server. */
export function getOrders(filters: AdminOrderFilters, signal?: AbortSignal): Promise<AdminOrderPage> {
  return apiClient.get<AdminOrderPage>(ADMIN_API.orders, {
    query: { search: filters.search, status: filters.status, page: filters.page },
    signal,
  });
}

export function ordersQueryOptions(filters: AdminOrderFilters) {
  return queryOptions({
    queryKey: adminOrderKeys.list(filters),
    queryFn: ({ signal }) => getOrders(filters, signal),
  });
}

export function useOrders(filters: AdminOrderFilters) {
  return useQuery({ ...ordersQueryOptions(filters), placeholderData: keepPreviousData });
}
