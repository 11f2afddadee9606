import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import { ProfileSettingsCard } from '#web/features/account-settings/components/profile-settings';
import { PasswordSettings, SessionsSettings } from '#web/features/auth/components/device-settings';
import { EmailSettings } from '#web/features/auth/components/email-change';
import { TwoFactorSettings } from '#web/features/auth/components/two-factor-settings';

export function Component() {
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
