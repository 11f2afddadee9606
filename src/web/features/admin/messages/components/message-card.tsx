import { cn } from '#web/lib/cn';
import {
  Archive,
  ArrowDown,
  ArrowUp,
  CheckCheck,
  ChevronDown,
  MessagesSquare,
  Minus,
  Reply,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState } from 'react';
import { MESSAGE_PRIORITIES, type AdminMessage, type MessagePriority } from '#common/schemas/admin-messages';
import { Badge } from '#web/components/ui/badge';
import { Button, buttonClasses } from '#web/components/ui/button';
import { Select } from '#web/components/ui/select';
import { isApiError } from '#web/lib/api-client';
import { formatDateTime, humanizeAction } from '#web/features/admin/shared/format';
import { useUpdateMessagePriority } from '../api/update-message-priority';
import { useUpdateMessageStatus } from '../api/update-message-status';
import { MessageThread } from './message-thread';

export const PRIORITY_LABELS: Record<MessagePriority, string> = {
  high: 'High',
  normal: 'Normal',
  low: 'Low',
};

const PRIORITY_LOOK: Record<MessagePriority, { icon: LucideIcon; className: string }> = {
  high: { icon: ArrowUp, className: 'bg-red-50 text-red-600' },
  normal: { icon: Minus, className: 'bg-stone-100 text-stone-500' },
  low: { icon: ArrowDown, className: 'bg-sky-50 text-sky-600' },
};

/** The spec's text, with the server's reason after it when it gave one. */
function failure(text: string, error: unknown): string {
  return isApiError(error) &&
    error.status >= 400 &&
    error.status < 500 &&
    error.message &&
    error.message !== text
    ? `${text}: ${error.message}`
    : text;
}

function replyHref(message: AdminMessage): string {
  const subject = encodeURIComponent(`Re: ${message.subject}`);
  return `mailto:${message.senderEmail ?? ''}?subject=${subject}`;
}

/** One customer message: priority, subject, sender, date, Reply, content, priority select, status action. */
export function MessageCard({ message }: { message: AdminMessage }) {
  const status = useUpdateMessageStatus();
  const priority = useUpdateMessagePriority();
  const titleId = useId();
  const priorityId = useId();
  const look = PRIORITY_LOOK[message.priority];
  const PriorityIcon = look.icon;
  const isUnread = message.status === 'unread';
  const [isOpen, setIsOpen] = useState(false);
  const threadId = useId();

  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'rounded-2xl p-4 ring-1 ring-stone-200/80 sm:p-5',
        // Unread: a rose bar down the left edge (an inset shadow, so the content does not shift).
        isUnread
          ? 'bg-white shadow-[inset_4px_0_0_0_var(--color-rose-500)]'
          : 'bg-white shadow-sm shadow-stone-900/[0.03]',
      )}
    >
      <div className="flex items-start gap-3">
        <span
          className={cn(
            'inline-flex size-9 shrink-0 items-center justify-center rounded-full',
            look.className,
          )}
          title={`${PRIORITY_LABELS[message.priority]} priority`}
        >
          <PriorityIcon className="size-4" aria-hidden="true" />
          <span className="sr-only">{PRIORITY_LABELS[message.priority]} priority</span>
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h2
              id={titleId}
              className="min-w-0 text-[15px] font-semibold [overflow-wrap:anywhere] text-stone-950"
            >
              {message.subject}
            </h2>
            {isUnread ? <Badge tone="rose">Unread</Badge> : null}
            {message.userId === null ? <Badge tone="blue">Guest</Badge> : null}
            {message.status === 'archived' ? <Badge>Archived</Badge> : null}
            {message.category !== 'general' ? (
              <Badge tone="neutral">{humanizeAction(message.category)}</Badge>
            ) : null}
          </div>
          <p className="mt-0.5 text-sm text-stone-500 sm:flex sm:flex-wrap sm:gap-x-2">
            <span className="block break-all">
              {message.guestName ? `${message.guestName} · ` : ''}
              {message.senderEmail ?? 'Unknown sender'}
            </span>
            <span aria-hidden="true" className="hidden sm:inline">
              ·
            </span>
            <time dateTime={message.createdAt} className="block text-xs sm:inline sm:text-sm">
              {formatDateTime(message.createdAt)}
            </time>
          </p>
        </div>
        {message.senderEmail ? (
          <a
            href={replyHref(message)}
            className={buttonClasses({ variant: 'outline', size: 'sm', className: 'shrink-0' })}
            aria-label={`Reply to ${message.senderEmail}`}
          >
            <Reply className="size-4" aria-hidden="true" />
            Reply
          </a>
        ) : null}
      </div>

      <p className="mt-3 text-sm leading-relaxed [overflow-wrap:anywhere] whitespace-pre-line text-stone-700 sm:pl-12">
        {message.content}
      </p>
      {message.orderReference ? (
        <p className="mt-2 text-xs text-stone-500 sm:pl-12">
          Order named: <span className="font-medium text-stone-700">{message.orderReference}</span>
          {message.orderLinked
            ? ' · matches an order with this email (replies show on its page)'
            : ' · no order with this number and email'}
        </p>
      ) : null}

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-stone-100 pt-4 sm:ml-12">
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={isOpen}
          aria-controls={threadId}
          onClick={() => setIsOpen((open) => !open)}
          className="-ml-2"
        >
          <MessagesSquare className="size-4" aria-hidden="true" />
          {message.replyCount > 0
            ? `Conversation (${message.replyCount})`
            : message.status === 'archived'
              ? 'Conversation'
              : 'Answer here'}
          <ChevronDown
            className={cn('size-4 transition-transform', isOpen ? 'rotate-180' : '')}
            aria-hidden="true"
          />
        </Button>
        <div className="flex items-center gap-2">
          <label htmlFor={priorityId} className="text-sm text-stone-500">
            Priority
          </label>
          <Select
            id={priorityId}
            size="sm"
            value={priority.isPending ? priority.variables.priority : message.priority}
            disabled={priority.isPending}
            onChange={(e) => priority.mutate({ id: message.id, priority: e.target.value as MessagePriority })}
            wrapperClassName="w-32"
          >
            {MESSAGE_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {PRIORITY_LABELS[p]}
              </option>
            ))}
          </Select>
        </div>
        {message.status === 'unread' ? (
          <Button
            size="sm"
            variant="secondary"
            isLoading={status.isPending}
            onClick={() => status.mutate({ id: message.id, status: 'read' })}
          >
            <CheckCheck className="size-4" aria-hidden="true" />
            Mark Read
          </Button>
        ) : message.status === 'read' ? (
          <Button
            size="sm"
            variant="outline"
            isLoading={status.isPending}
            onClick={() => status.mutate({ id: message.id, status: 'archived' })}
          >
            <Archive className="size-4" aria-hidden="true" />
            Archive
          </Button>
        ) : (
          <span className="inline-flex items-center gap-1.5 text-sm font-medium text-stone-500">
            <Archive className="size-4" aria-hidden="true" />
            Archived
          </span>
        )}
      </div>
      <div id={threadId}>{isOpen ? <MessageThread message={message} /> : null}</div>
      {status.isError || priority.isError ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-600 sm:ml-12">
          {status.isError
            ? failure('Failed to update message status', status.error)
            : failure('Failed to update message priority', priority.error)}
        </p>
      ) : null}
    </article>
  );
}
