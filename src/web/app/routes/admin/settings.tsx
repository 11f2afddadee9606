import { PageTitle } from '#web/components/page-title';
import { ApiSettings } from '#web/features/admin/settings/components/api-settings';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminSettingsPage() {
  return (
    <>
      <PageTitle title="Settings · Admin" />
      <AdminPageHeader
        title="API Settings"
        description="Keys and addresses of the services the shop uses. Values are encrypted and only ever shown masked."
      />
      <ApiSettings />
    </>
  );
}
