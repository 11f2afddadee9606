import type { QueryClient } from '@tanstack/react-query';
import type { AdminSetting, AdminSettingList } from '#common/schemas/admin-settings';
import { settingsKeys } from './settings-keys';

/** Puts the server's answer for one setting into the loaded list at once, then refetches it. */
export async function replaceSetting(queryClient: QueryClient, setting: AdminSetting): Promise<void> {
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
}
