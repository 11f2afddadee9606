import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminAirdrops } from '#common/schemas/admin-airdrops';
import { apiClient } from '#web/lib/api-client';
import { airdropKeys, type AirdropFilters } from './airdrops-keys';

/** GET /api/admin/airdrops: claims (searched, by age, paged) and stats over every claim. */
export function getAirdrops(filters: AirdropFilters, signal?: AbortSignal): Promise<AdminAirdrops> {
  return apiClient.get<AdminAirdrops>(ADMIN_API.airdrops, {
    query: { search: filters.search, age: filters.age, page: filters.page },
    signal,
  });
}

export function airdropsQueryOptions(filters: AirdropFilters) {
  return queryOptions({
    queryKey: airdropKeys.list(filters),
    queryFn: ({ signal }) => getAirdrops(filters, signal),
  });
}

export function useAirdrops(filters: AirdropFilters) {
  return useQuery({ ...airdropsQueryOptions(filters), placeholderData: keepPreviousData });
}
