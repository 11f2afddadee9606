import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminMessagePage } from '#common/schemas/admin-messages';
import { apiClient } from '#web/lib/api-client';
import { messageKeys, type MessageFilters } from './messages-keys';

/** GET /api/admin/messages: newest first, with the sender's email, searched and filtered. */
export function getMessages(filters: MessageFilters, signal?: AbortSignal): Promise<AdminMessagePage> {
  return apiClient.get<AdminMessagePage>(ADMIN_API.messages, {
    query: { search: filters.search, status: filters.status, priority: filters.priority, page: filters.page },
    signal,
  });
}

export function messagesQueryOptions(filters: MessageFilters) {
  return queryOptions({
    queryKey: messageKeys.list(filters),
    queryFn: ({ signal }) => getMessages(filters, signal),
  });
}

export function useMessages(filters: MessageFilters) {
  return useQuery({ ...messagesQueryOptions(filters), placeholderData: keepPreviousData });
}
