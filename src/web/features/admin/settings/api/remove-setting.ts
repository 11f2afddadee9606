import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminSetting, type AdminSettingList } from '#common/schemas/admin-settings';
import { apiClient } from '#web/lib/api-client';
import { settingsKeys } from './settings-keys';

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
    onSuccess: async (setting) => {
      queryClient.setQueryData<AdminSettingList>(settingsKeys.all, (list) =>
        list
          ? {
              settings: list.settings.map((s) =>
                s.provider === setting.provider && s.keyName === setting.keyName ? setting : s,
              ),
            }
          : list,
      );
      await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
  });
}
