import { PageTitle } from '#web/components/page-title';
import { AuditLog } from '#web/features/admin/audit/components/audit-log';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminAuditPage() {
  return (
    <>
      <PageTitle title="Audit Log · Admin" />
      <AdminPageHeader title="Audit Log" description="Every change made in the back office, newest first." />
      <AuditLog />
    </>
  );
}
