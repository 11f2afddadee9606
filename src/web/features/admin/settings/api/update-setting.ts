import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminSetting, type AdminSettingList } from '#common/schemas/admin-settings';
import { apiClient } from '#web/lib/api-client';
import { settingsKeys } from './settings-keys';

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
