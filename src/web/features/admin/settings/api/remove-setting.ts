import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import type { AdminSetting } from '#common/schemas/admin-settings';
import { apiClient } from '#web/lib/api-client';
import { replaceSetting } from './replace-setting';

export interface SettingRemoveInput {
  provider: string;
  keyName: string;
}

/** DELETE /api/admin/settings/:provider/:keyName -> the setting as it now is (environment or unset). */
export function removeSetting({ provider, keyName }: SettingRemoveInput): Promise<AdminSetting> {
  return apiClient.delete<AdminSetting>(ADMIN_API.setting(provider, keyName));
}

export function useRemoveSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeSetting,
    onSuccess: (setting) => replaceSetting(queryClient, setting),
  });
}
