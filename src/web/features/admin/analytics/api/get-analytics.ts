import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminAnalytics } from '#common/schemas/admin-analytics';
import { apiClient } from '#web/lib/api-client';
import { analyticsKeys } from './analytics-keys';

/** GET /api/admin/analytics: 30 days of sales, categories, payment methods, customer retention. */
export function getAnalytics(signal?: AbortSignal): Promise<AdminAnalytics> {
  return apiClient.get<AdminAnalytics>(ADMIN_API.analytics, { signal });
}

export function analyticsQueryOptions() {
  return queryOptions({
    queryKey: analyticsKeys.all,
    queryFn: ({ signal }) => getAnalytics(signal),
  });
}

export function useAnalytics() {
  return useQuery(analyticsQueryOptions());
}
