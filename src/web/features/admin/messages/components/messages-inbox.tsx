import { Inbox } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  MESSAGE_PRIORITIES,
  MESSAGE_STATUSES,
  type MessagePriority,
  type MessageStatus,
} from '#common/schemas/admin-messages';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { useLiveEvents } from '#web/lib/live-events';
import { messageKeys } from '../api/messages-keys';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { ListPage } from '#web/features/admin/shared/components/list-page';
import { useListParams } from '#web/features/admin/shared/hooks/use-list-params';
import { useMessages } from '../api/get-messages';
import { MessageCard, PRIORITY_LABELS } from './message-card';

const STATUS_LABELS: Record<MessageStatus, string> = { unread: 'Unread', read: 'Read', archived: 'Archived' };

/** Customer messages: search, status and priority filters, cards to triage; live on 'admin:messages'. */
export function MessagesInbox() {
  const list = useListParams<{ status: 'all' | MessageStatus; priority: 'all' | MessagePriority }>({
    status: 'all',
    priority: 'all',
  });
  const { search, page } = list;
  const { status, priority } = list.filters;

  useLiveEvents({ 'admin:messages': [messageKeys.all] });
  const messages = useMessages({ search, status, priority, page });
  const rows = messages.data?.items ?? [];

  return (
    <ListPage
      toolbar={
        <>
          <SearchInput
            label="Search messages"
            placeholder="Search messages..."
            value={list.searchText}
            onChange={(e) => list.setSearchText(e.target.value)}
            wrapperClassName="sm:w-80"
          />
          <div className="grid grid-cols-2 gap-3 sm:ml-auto sm:flex sm:gap-4">
            <FilterLabel text="Status">
              <Select
                aria-label="Status"
                size="sm"
                value={status}
                onChange={(e) => list.setFilter('status', e.target.value as 'all' | MessageStatus)}
                wrapperClassName="w-full sm:w-32"
              >
                <option value="all">All</option>
                {MESSAGE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </Select>
            </FilterLabel>
            <FilterLabel text="Priority">
              <Select
                aria-label="Priority"
                size="sm"
                value={priority}
                onChange={(e) => list.setFilter('priority', e.target.value as 'all' | MessagePriority)}
                wrapperClassName="w-full sm:w-32"
              >
                <option value="all">All</option>
                {MESSAGE_PRIORITIES.map((p) => (
                  <option key={p} value={p}>
                    {PRIORITY_LABELS[p]}
                  </option>
                ))}
              </Select>
            </FilterLabel>
          </div>
        </>
      }
      query={messages}
      error="Failed to load messages"
      loading={
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading messages</span>
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="space-y-3 rounded-2xl bg-white p-5 ring-1 ring-stone-200/80">
              <div className="flex gap-3">
                <Skeleton className="size-9 rounded-full" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-1/3" />
                  <Skeleton className="h-3 w-1/4" />
                </div>
              </div>
              <Skeleton className="h-12 w-full" />
            </div>
          ))}
        </div>
      }
      isEmpty={rows.length === 0}
      empty={
        <EmptyState icon={Inbox} title="No messages found">
          {search || status !== 'all' || priority !== 'all'
            ? 'Try another search or filter.'
            : 'Messages from customers will appear here.'}
        </EmptyState>
      }
      noun="messages"
      onPageChange={list.setPage}
    >
      <div className="space-y-3">
        {rows.map((message) => (
          <MessageCard key={message.id} message={message} />
        ))}
      </div>
    </ListPage>
  );
}

/** A filter select with its visible name before it (the name is the select's label). */
function FilterLabel({ text, children }: { text: string; children: ReactNode }) {
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm text-stone-500">
      <span className="shrink-0">{text}</span>
      {children}
    </label>
  );
}
