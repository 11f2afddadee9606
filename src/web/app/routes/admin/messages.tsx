import { PageTitle } from '#web/components/page-title';
import { MessagesInbox } from '#web/features/admin/messages/components/messages-inbox';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminMessagesPage() {
  return (
    <>
      <PageTitle title="Messages · Admin" />
      <AdminPageHeader
        title="Customer Messages"
        description="Read, prioritise and archive what customers send."
      />
      <MessagesInbox />
    </>
  );
}
