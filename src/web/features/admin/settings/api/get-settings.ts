import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminSettingList } from '#common/schemas/admin-settings';
import { apiClient } from '#web/lib/api-client';
import { settingsKeys } from './settings-keys';

/** GET /api/admin/settings: every API configuration, values masked by the server. */
export function getSettings(signal?: AbortSignal): Promise<AdminSettingList> {
  return apiClient.get<AdminSettingList>(ADMIN_API.settings, { signal });
}

export function settingsQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) => getSettings(signal),
  });
}

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
