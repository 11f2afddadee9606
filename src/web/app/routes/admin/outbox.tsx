import { PageTitle } from '#web/components/page-title';
import { Outbox } from '#web/features/admin/outbox/components/outbox';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminOutboxPage() {
  return (
    <>
      <PageTitle title="Outbox · Admin" />
      <AdminPageHeader
        title="Outbox"
        description="Mail is local: nothing is sent, every mail the shop writes is kept here. Open one to follow its links."
      />
      <Outbox />
    </>
  );
}
