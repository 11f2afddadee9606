import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Ticket, TicketCreate, TicketList } from '#common/schemas/tickets';
import { apiClient } from '#web/lib/api-client';

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

/** POST /api/tickets; the list refreshes when it lands. */
export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TicketCreate) => apiClient.post<Ticket>('/api/tickets', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.all }),
  });
}
