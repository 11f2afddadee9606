import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminCustomerPage } from '#common/schemas/admin-customers';
import { apiClient } from '#web/lib/api-client';
import { customerKeys, type CustomerFilters } from './customers-keys';

/** GET /api/admin/customers: orders grouped by shipping email on the server, sorted and paged. */
export function getCustomers(filters: CustomerFilters, signal?: AbortSignal): Promise<AdminCustomerPage> {
  return apiClient.get<AdminCustomerPage>(ADMIN_API.customers, {
    query: { search: filters.search, sort: filters.sort, page: filters.page },
    signal,
  });
}

export function customersQueryOptions(filters: CustomerFilters) {
  return queryOptions({
    queryKey: customerKeys.list(filters),
    queryFn: ({ signal }) => getCustomers(filters, signal),
  });
}

export function useCustomers(filters: CustomerFilters) {
  return useQuery({ ...customersQueryOptions(filters), placeholderData: keepPreviousData });
}
