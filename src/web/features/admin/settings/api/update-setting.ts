import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { AdminSetting } from '#common/schemas/admin-settings';
import { apiClient } from '#web/lib/api-client';
import { replaceSetting } from './replace-setting';

export interface SettingUpdateInput {
  provider: string;
  keyName: string;
  value: string;
}

/** PUT /api/admin/settings/:provider/:keyName { value } -> the setting, masked. */
export function updateSetting({ provider, keyName, value }: SettingUpdateInput): Promise<AdminSetting> {
  return apiClient.put<AdminSetting>(ADMIN_API.setting(provider, keyName), { value });
}

export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSetting,
    onSuccess: (setting) => replaceSetting(queryClient, setting),
  });
}
