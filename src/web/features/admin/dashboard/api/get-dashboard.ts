import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminDashboard } from '#common/schemas/admin-dashboard';
import { apiClient } from '#web/lib/api-client';
import { dashboardKeys } from './dashboard-keys';

/** GET /api/admin/dashboard: totals with week-over-week trends, 7 days of sales, newest orders and audit entries. */
export function getDashboard(signal?: AbortSignal): Promise<AdminDashboard> {
  return apiClient.get<AdminDashboard>(ADMIN_API.dashboard, { signal });
}

export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => getDashboard(signal),
  });
}

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
