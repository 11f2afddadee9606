import { queryOptions, useQuery } from '@tanstack/react-query';
import { SUPPORT_API, type AdminMessageThread } from '#common/schemas/support-threads';
import { apiClient } from '#web/lib/api-client';
import { messageKeys } from './messages-keys';

/** GET /api/admin/messages/:id/thread: the message and its replies, oldest first. */
export function getMessageThread(id: string, signal?: AbortSignal): Promise<AdminMessageThread> {
  return apiClient.get<AdminMessageThread>(SUPPORT_API.adminThread(id), { signal });
}

export function messageThreadQueryOptions(id: string) {
  return queryOptions({
    queryKey: messageKeys.thread(id),
    queryFn: ({ signal }) => getMessageThread(id, signal),
  });
}

export function useMessageThread(id: string) {
  return useQuery(messageThreadQueryOptions(id));
}
