import type { AdminMessage } from '#common/schemas/admin-messages';
import { SUPPORT_TEXTS } from '#common/schemas/support-threads';
import { LocalMailNote } from '#web/components/local-mail-note';
import { ReplyForm } from '#web/components/reply-form';
import { SupportThread } from '#web/components/support-thread';
import { Alert } from '#web/components/ui/alert';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useMessageThread } from '../api/get-message-thread';
import { useReplyToMessage } from '../api/reply-to-message';

/**
 * An opened message's conversation: the replies so far and the admin's answer, sent in the app
 * (and mailed to the sender; the card's Reply mail link stays for a mail of one's own). Live with
 * the inbox: a follow-up arriving on 'admin:messages' refetches it.
 */
export function MessageThread({ message }: { message: AdminMessage }) {
  const thread = useMessageThread(message.id);
  const reply = useReplyToMessage();
  const isArchived = message.status === 'archived';

  return (
    <div className="mt-4 space-y-4 border-t border-stone-100 pt-4 sm:ml-12">
      {thread.isError ? (
        <Alert variant="error">{errorMessage(thread.error, 'Failed to load the conversation')}</Alert>
      ) : thread.isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading the conversation</span>
          <Skeleton className="h-16 w-3/4 rounded-2xl" />
        </div>
      ) : thread.data.replies.length === 0 ? (
        <p className="text-sm text-stone-500">No replies yet.</p>
      ) : (
        <SupportThread replies={thread.data.replies} perspective="admin" />
      )}
      {isArchived ? (
        <p className="text-sm text-stone-500">Archived: the conversation is closed.</p>
      ) : (
        <ReplyForm
          label="Your reply"
          placeholder={`Write to ${message.guestName ?? message.senderEmail ?? 'the customer'}…`}
          submitLabel="Send reply"
          isPending={reply.isPending}
          error={reply.isError ? errorMessage(reply.error, SUPPORT_TEXTS.failed) : undefined}
          send={(body) => reply.mutateAsync({ id: message.id, body })}
          notice={
            <>
              {SUPPORT_TEXTS.replySent}
              {message.senderEmail ? ` and mailed to ${message.senderEmail}` : ''}.
              <LocalMailNote />
            </>
          }
        />
      )}
    </div>
  );
}
