import type { QueryClient } from '@tanstack/react-query';
import type { AdminMessage, AdminMessagePage } from '#common/schemas/admin-messages';
import { messageKeys } from './messages-keys';

/** Puts the server's answer for one message into every loaded list at once (a refetch follows). */
export function replaceMessage(queryClient: QueryClient, message: AdminMessage): void {
  queryClient.setQueriesData<AdminMessagePage>({ queryKey: messageKeys.lists() }, (page) =>
    page ? { ...page, items: page.items.map((m) => (m.id === message.id ? message : m)) } : page,
  );
}
