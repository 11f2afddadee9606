import { PageTitle } from '#web/components/page-title';
import { Outbox } from '#web/features/admin/outbox/components/outbox';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';
import { useLocalMail } from '#web/lib/shop-info';

export default function AdminOutboxPage() {
  const isLocal = useLocalMail();
  return (
    <>
      <PageTitle title="Outbox · Admin" />
      <AdminPageHeader
        title="Outbox"
        description={
          isLocal
            ? 'Mail is local: nothing is sent, every mail the shop writes is kept here. Open one to follow its links.'
            : 'Every mail the shop sends by SMTP. One that still fails after every retry is marked Failed: send it again once the mail server takes it.'
        }
      />
      <Outbox />
    </>
  );
}
