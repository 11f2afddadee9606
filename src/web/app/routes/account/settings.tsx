import type { ProfileSettings } from '#common/schemas/account-settings';
import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import { ProfileSettingsCard } from '#web/features/account-settings/components/profile-settings';
import { sessionsQueryOptions } from '#web/features/auth/api/sessions';
import { twoFactorStatusQueryOptions } from '#web/features/auth/api/two-factor';
import { PasswordSettings, SessionsSettings } from '#web/features/auth/components/device-settings';
import { EmailSettings } from '#web/features/auth/components/email-change';
import { TwoFactorSettings } from '#web/features/auth/components/two-factor-settings';
import { accountSettingsKey } from '#web/lib/account-settings';
import { apiClient } from '#web/lib/api-client';
import { meQueryOptions } from '#web/lib/current-user';

export default function AccountSettingsPage() {
  return (
    <>
      <PageTitle title="Settings" />
      <AccountPageHeader title="Settings" />
      <div className="space-y-6">
        <ProfileSettingsCard />
        <EmailSettings />
        <TwoFactorSettings />
        <PasswordSettings />
        <SessionsSettings />
      </div>
    </>
  );
}

/**
 * Every card's data. The profile settings are keyed by the user (lib/account-settings.ts, which
 * checkout shares: its query is written out here rather than added to that module).
 */
export const loader = queriesLoader(async (queryClient) => {
  const cards = Promise.all([
    queryClient.prefetchQuery(twoFactorStatusQueryOptions()),
    queryClient.prefetchQuery(sessionsQueryOptions()),
  ]);
  const { user } = await queryClient.fetchQuery(meQueryOptions());
  if (user) {
    await queryClient.prefetchQuery({
      queryKey: [...accountSettingsKey, user.id],
      queryFn: ({ signal }) => apiClient.get<ProfileSettings>('/api/account/settings', { signal }),
      staleTime: 60_000,
    });
  }
  await cards;
});
export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
