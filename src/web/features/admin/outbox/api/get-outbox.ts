import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_OUTBOX_API, type OutboxMail, type OutboxPage } from '#common/schemas/admin-outbox';
import { apiClient } from '#web/lib/api-client';

/** Query keys of the Outbox, under ['admin', 'outbox']. */
export const outboxKeys = {
  all: ['admin', 'outbox'] as const,
  list: (page: number) => [...outboxKeys.all, 'list', page] as const,
  mail: (id: string) => [...outboxKeys.all, 'mail', id] as const,
};

/** GET /api/admin/outbox: the local mails, newest first. */
export function outboxQueryOptions(page: number) {
  return queryOptions({
    queryKey: outboxKeys.list(page),
    queryFn: ({ signal }) => apiClient.get<OutboxPage>(ADMIN_OUTBOX_API.list, { query: { page }, signal }),
  });
}

export function useOutbox(page: number) {
  return useQuery({ ...outboxQueryOptions(page), placeholderData: keepPreviousData });
}

/** GET /api/admin/outbox/:id: one mail with its bodies. */
export function useOutboxMail(id: string | null) {
  return useQuery({
    queryKey: outboxKeys.mail(id ?? ''),
    queryFn: ({ signal }) => apiClient.get<OutboxMail>(ADMIN_OUTBOX_API.mail(id ?? ''), { signal }),
    enabled: id !== null,
  });
}
