import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  ADMIN_OUTBOX_API,
  type OutboxCounts,
  type OutboxMail,
  type OutboxPage,
  type OutboxStatus,
} from '#common/schemas/admin-outbox';
import { apiClient } from '#web/lib/api-client';

/** The Outbox's filter: every mail, or one status (the dead letters: 'failed'). */
export type OutboxFilter = 'all' | OutboxStatus;

/** Query keys of the Outbox, under ['admin', 'outbox']. */
export const outboxKeys = {
  all: ['admin', 'outbox'] as const,
  list: (page: number, filter: OutboxFilter) => [...outboxKeys.all, 'list', filter, page] as const,
  counts: () => [...outboxKeys.all, 'counts'] as const,
  mail: (id: string) => [...outboxKeys.all, 'mail', id] as const,
};

/** GET /api/admin/outbox: the mail queue, newest first. */
export function outboxQueryOptions(page: number, filter: OutboxFilter = 'all') {
  return queryOptions({
    queryKey: outboxKeys.list(page, filter),
    queryFn: ({ signal }) =>
      apiClient.get<OutboxPage>(ADMIN_OUTBOX_API.list, { query: { page, status: filter }, signal }),
  });
}

export function useOutbox(page: number, filter: OutboxFilter = 'all') {
  return useQuery({ ...outboxQueryOptions(page, filter), placeholderData: keepPreviousData });
}

/** GET /api/admin/outbox-counts: how many mails failed (the navigation's badge). */
export function useOutboxCounts() {
  return useQuery({
    queryKey: outboxKeys.counts(),
    queryFn: ({ signal }) => apiClient.get<OutboxCounts>(ADMIN_OUTBOX_API.counts, { signal }),
    staleTime: 60_000,
  });
}

/** GET /api/admin/outbox/:id: one mail (its bodies with local mail only). */
export function useOutboxMail(id: string | null) {
  return useQuery({
    queryKey: outboxKeys.mail(id ?? ''),
    queryFn: ({ signal }) => apiClient.get<OutboxMail>(ADMIN_OUTBOX_API.mail(id ?? ''), { signal }),
    enabled: id !== null,
  });
}
