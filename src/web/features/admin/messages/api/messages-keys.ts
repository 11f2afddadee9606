import type { MessagePriority, MessageStatus } from '#common/schemas/admin-messages';

export interface MessageFilters {
  search: string;
  status: 'all' | MessageStatus;
  priority: 'all' | MessagePriority;
  page: number;
}

/** Query keys of the messages screen, under ['admin', 'messages'] (live topic 'admin:messages'). */
export const messageKeys = {
  all: ['admin', 'messages'] as const,
  lists: () => [...messageKeys.all, 'list'] as const,
  list: (filters: MessageFilters) => [...messageKeys.lists(), filters] as const,
  thread: (id: string) => [...messageKeys.all, 'thread', id] as const,
};
