import { data, type ActionFunctionArgs, type ClientActionFunctionArgs } from 'react-router';
import { isErrorBody } from '#common/errors';
import type { PageContext } from '#common/page-context';
import { TICKET_TEXTS, TicketCreateSchema } from '#common/schemas/tickets';
import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import {
  ticketFormValues,
  ticketKeys,
  ticketsQueryOptions,
  type TicketFormResult,
  type TicketFormValues,
} from '#web/features/tickets/api/tickets';
import { TicketForm } from '#web/features/tickets/components/ticket-form';
import { TicketList } from '#web/features/tickets/components/ticket-list';
import { fieldErrors } from '#web/lib/form-data';
import { queryClient } from '#web/lib/query-client';

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

function failure(message: string, values: TicketFormValues, status: number, fields?: Record<string, string>) {
  return data<TicketFormResult>({ error: { message, ...(fields ? { fields } : {}) }, values }, { status });
}

/**
 * The ticket form's post (features/tickets/components/ticket-form.tsx), with or without the code:
 * checked with the shared schema, then created by the API as the visitor. The answer is the
 * spec's texts: a session that has ended is asked to log in, any other refusal shows the API's
 * message. A failure answers with its status, so React Router does not reload the page's data.
 */
export async function action({ request, context }: ActionFunctionArgs<PageContext>) {
  const values = ticketFormValues(await request.formData());
  // A form without a category (none is chosen by default in the schema) is a general question.
  const parsed = TicketCreateSchema.safeParse({ ...values, category: values.category || undefined });
  if (!parsed.success) {
    return failure(
      parsed.error.issues[0]?.message ?? TICKET_TEXTS.required,
      values,
      400,
      fieldErrors(parsed.error),
    );
  }
  const res = await context.fetchApi('/api/tickets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(parsed.data),
  });
  if (res.ok) return data<TicketFormResult>({ created: true });
  if (res.status === 401) return failure(TICKET_TEXTS.loginToSend, values, 401);
  const body: unknown = await res.json().catch(() => null);
  return isErrorBody(body)
    ? failure(body.error.message, values, res.status, body.error.fields)
    : failure(TICKET_TEXTS.failed, values, res.status);
}

/**
 * In the browser: the list shows the new ticket with the success text (its query is fetched again
 * before the answer shows); a post that never reached the server gets the spec's fallback.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const values = ticketFormValues(await request.clone().formData());
  let result: TicketFormResult;
  try {
    result = await serverAction<TicketFormResult>();
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown;
    return { error: { message: TICKET_TEXTS.failed }, values } satisfies TicketFormResult;
  }
  if ('created' in result) await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
  return result;
}
