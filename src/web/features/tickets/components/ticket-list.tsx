import { Archive, MailOpen, MessageSquare } from 'lucide-react';
import { TICKET_CATEGORY_LABELS, TICKET_TEXTS, type Ticket } from '#common/schemas/tickets';
import { Alert } from '#web/components/ui/alert';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { useLiveEvents } from '#web/lib/live-events';
import { ticketKeys, useTickets } from '../api/tickets';
import { useDateFormatter } from '#web/lib/local-time';
import { TicketThread } from './ticket-thread';

const STATUS: Record<Ticket['status'], { label: string; tone: BadgeTone }> = {
  unread: { label: 'Unread', tone: 'rose' },
  read: { label: 'Read', tone: 'blue' },
  archived: { label: 'Archived', tone: 'neutral' },
};
const PRIORITY: Record<Ticket['priority'], { label: string; tone: BadgeTone }> = {
  high: { label: 'High priority', tone: 'red' },
  normal: { label: 'Normal priority', tone: 'neutral' },
  low: { label: 'Low priority', tone: 'green' },
};

function TicketItem({ ticket }: { ticket: Ticket }) {
  const unread = ticket.status === 'unread';
  const Icon = ticket.status === 'archived' ? Archive : unread ? MessageSquare : MailOpen;
  const formatDate = useDateFormatter();
  return (
    <li
      aria-label={ticket.subject}
      data-status={ticket.status}
      className={cn(
        'rounded-2xl p-5 ring-1 transition-colors',
        unread ? 'bg-rose-50/60 ring-rose-200' : 'bg-white ring-stone-200/80',
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <Icon
            className={cn('mt-0.5 size-5 shrink-0', unread ? 'text-rose-600' : 'text-stone-400')}
            aria-hidden="true"
          />
          <div className="min-w-0">
            <h3 className={cn('break-words text-stone-950', unread ? 'font-semibold' : 'font-medium')}>
              {ticket.subject}
            </h3>
            <p className="text-xs text-stone-600">
              {TICKET_CATEGORY_LABELS[ticket.category]} ·{' '}
              {formatDate(ticket.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Badge tone={STATUS[ticket.status].tone} hasDot>
            {STATUS[ticket.status].label}
          </Badge>
          <Badge tone={PRIORITY[ticket.priority].tone}>{PRIORITY[ticket.priority].label}</Badge>
        </div>
      </div>
      <p className="mt-3 text-sm break-words whitespace-pre-wrap text-stone-700">{ticket.content}</p>
      <TicketThread ticket={ticket} />
    </li>
  );
}

/** The customer's tickets, newest first, unread highlighted; refreshed live on their ticket events. */
export function TicketList() {
  const query = useTickets();
  useLiveEvents({ 'tickets:me': [ticketKeys.all] });

  return (
    <section aria-labelledby="your-tickets" className="space-y-4">
      <h2 id="your-tickets" className="text-lg font-semibold text-stone-950">
        Your tickets
      </h2>
      {query.isError ? (
        <Alert variant="error">
          {isApiError(query.error) && query.error.status === 401
            ? TICKET_TEXTS.loginToView
            : errorMessage(query.error, 'Failed to load support tickets')}
        </Alert>
      ) : query.isPending ? (
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading tickets</span>
          <Skeleton className="h-28 w-full rounded-2xl" />
          <Skeleton className="h-28 w-full rounded-2xl" />
        </div>
      ) : query.data.tickets.length === 0 ? (
        <div className="flex flex-col items-center rounded-2xl bg-white px-6 py-12 text-center ring-1 ring-stone-200/80">
          <MessageSquare className="size-10 text-stone-300" aria-hidden="true" />
          <p className="mt-3 font-medium text-stone-900">{TICKET_TEXTS.empty}</p>
        </div>
      ) : (
        <ul className="space-y-3">
          {query.data.tickets.map((t) => (
            <TicketItem key={t.id} ticket={t} />
          ))}
        </ul>
      )}
    </section>
  );
}
