import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import { ticketsQueryOptions } from '#web/features/tickets/api/tickets';
import { TicketForm } from '#web/features/tickets/components/ticket-form';
import { TicketList } from '#web/features/tickets/components/ticket-list';

export default function AccountMessagesPage() {
  return (
    <>
      <PageTitle title="Messages" />
      <AccountPageHeader title="Messages" />
      <div className="grid gap-8 xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)] xl:items-start">
        <TicketForm />
        <TicketList />
      </div>
    </>
  );
}

export const loader = queriesLoader((queryClient) => queryClient.prefetchQuery(ticketsQueryOptions()));
export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
