import { useQuery } from '@tanstack/react-query';
import type { TicketList } from '#common/schemas/tickets';
import { apiClient } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';

/** Query keys of the customer's tickets (live topic 'tickets:me' refreshes them). */
export const ticketKeys = { all: ['tickets'] as const };

/**
 * GET /api/tickets: the signed-in customer's own tickets, newest first.
 * For useQuery and the server's prefetch. A plain object: TanStack's `queryOptions` would be one
 * more export of the landing page's entry chunk.
 */
export function ticketsQueryOptions() {
  return {
    queryKey: ticketKeys.all,
    queryFn: ({ signal }: { signal: AbortSignal }) => apiClient.get<TicketList>('/api/tickets', { signal }),
  };
}

export function useTickets() {
  return useQuery(ticketsQueryOptions());
}

/** The ticket form's fields as sent (the form posts them to the messages route's action). */
export interface TicketFormValues {
  category: string;
  subject: string;
  content: string;
}

/**
 * What the messages route's action answers the ticket form: created, or the message to show
 * (the spec's texts) with the fields at fault and what was typed, so a round trip without the
 * code keeps it.
 */
export type TicketFormResult =
  | { created: true }
  | {
      error: { message: string; fields?: Partial<Record<keyof TicketFormValues, string>> };
      values: TicketFormValues;
    };

/** The form's fields read from a submitted form. */
export function ticketFormValues(form: FormData): TicketFormValues {
  return {
    category: formText(form, 'category'),
    subject: formText(form, 'subject'),
    content: formText(form, 'content'),
  };
}
