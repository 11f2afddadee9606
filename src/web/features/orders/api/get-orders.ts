import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CustomerOrdersQuery, CustomerOrdersResponse } from '#common/schemas/customer-orders';
import { apiClient } from '#web/lib/api-client';

/** Query keys of the customer's orders (live topic 'orders:me' refreshes them). */
export const orderKeys = {
  all: ['orders'] as const,
  list: (query: CustomerOrdersQuery) => [...orderKeys.all, 'list', query] as const,
};

/** GET /api/orders: the signed-in customer's orders, searched and filtered on the server. */
export function getOrders(query: CustomerOrdersQuery, signal?: AbortSignal): Promise<CustomerOrdersResponse> {
  return apiClient.get<CustomerOrdersResponse>('/api/orders', {
    query: { search: query.search, status: query.status, age: query.age },
    signal,
  });
}

/** What the orders page lists first: every order, no search (its filters' starting values). */
export const ALL_ORDERS: CustomerOrdersQuery = { search: '', status: 'all', age: 'all' };

/**
 * For useQuery and the server's prefetch. A plain object: TanStack's `queryOptions` would be one
 * more export of the landing page's entry chunk.
 */
export function ordersQueryOptions(query: CustomerOrdersQuery) {
  return {
    queryKey: orderKeys.list(query),
    queryFn: ({ signal }: { signal: AbortSignal }) => getOrders(query, signal),
    placeholderData: keepPreviousData,
    // Live events refresh it at once; this is the fallback for orders matched by email.
    refetchInterval: 60_000,
  };
}

export function useOrders(query: CustomerOrdersQuery) {
  return useQuery(ordersQueryOptions(query));
}
