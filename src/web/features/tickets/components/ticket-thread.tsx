import { useState } from 'react';
import { SUPPORT_TEXTS } from '#common/schemas/support-threads';
import { TICKET_TEXTS, type Ticket } from '#common/schemas/tickets';
import { ReplyForm } from '#web/components/reply-form';
import { SupportThread } from '#web/components/support-thread';
import { Button } from '#web/components/ui/button';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { useReplyToTicket } from '../api/reply-to-ticket';

/**
 * Under a ticket: the shop's answers and the customer's follow-ups (live with the list, on
 * 'tickets:me'), and a follow-up of their own, which the shop sees as unread again. An archived
 * ticket is closed: a new question is a new ticket.
 */
export function TicketThread({ ticket }: { ticket: Ticket }) {
  const reply = useReplyToTicket();
  const [isWriting, setIsWriting] = useState(false);
  const hasAnswer = ticket.replies.some((r) => r.authorKind === 'admin');
  const failure = reply.isError
    ? isApiError(reply.error) && reply.error.status === 401
      ? TICKET_TEXTS.loginToSend
      : errorMessage(reply.error, SUPPORT_TEXTS.failed)
    : undefined;

  return (
    <div className="mt-4 space-y-3">
      <SupportThread replies={ticket.replies} perspective="customer" label={`Replies to ${ticket.subject}`} />
      {ticket.status === 'archived' ? (
        ticket.replies.length > 0 ? (
          <p className="text-xs text-stone-500">This ticket is closed.</p>
        ) : null
      ) : isWriting ? (
        <ReplyForm
          label="Your reply"
          placeholder="Add a detail or answer our question"
          submitLabel="Send reply"
          isPending={reply.isPending}
          error={failure}
          send={(body) => reply.mutateAsync({ id: ticket.id, body })}
          notice={SUPPORT_TEXTS.followUpSent}
        />
      ) : (
        <Button size="sm" variant="outline" onClick={() => setIsWriting(true)}>
          {hasAnswer ? 'Reply' : 'Add a message'}
        </Button>
      )}
    </div>
  );
}
