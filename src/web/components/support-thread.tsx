import { cn } from '#web/lib/cn';
import { useDateFormatter } from '#web/lib/local-time';
import { useShopName } from '#web/lib/shop-name';
import type { MessageReply } from '#common/schemas/support-threads';

/**
 * The replies under a support message, oldest first: the shop's answers and the sender's
 * follow-ups, as typed (never HTML). Shown to the admin (Messages), the customer (their tickets)
 * and a guest (their order's page); `perspective` names the sides for the reader.
 */
export function SupportThread({
  replies,
  perspective,
  label = 'Conversation',
  className,
}: {
  replies: readonly MessageReply[];
  perspective: 'admin' | 'customer' | 'guest';
  label?: string;
  className?: string;
}) {
  const formatDate = useDateFormatter();
  const shopName = useShopName();
  if (replies.length === 0) return null;
  const author = (kind: MessageReply['authorKind']) =>
    kind === 'admin'
      ? perspective === 'admin'
        ? `You (${shopName})`
        : `${shopName} Support`
      : perspective === 'admin'
        ? kind === 'guest'
          ? 'Guest'
          : 'Customer'
        : 'You';
  return (
    <ol aria-label={label} className={cn('space-y-3', className)}>
      {replies.map((reply) => {
        const fromShop = reply.authorKind === 'admin';
        return (
          <li
            key={reply.id}
            data-author={reply.authorKind}
            className={cn(
              'max-w-[46rem] rounded-2xl px-4 py-3 text-sm ring-1',
              fromShop
                ? 'mr-4 bg-stone-50 ring-stone-200/80 sm:mr-10'
                : 'ml-4 bg-rose-50/70 ring-rose-100 sm:ml-10',
            )}
          >
            <p className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 text-xs">
              <span className={cn('font-semibold', fromShop ? 'text-stone-900' : 'text-rose-800')}>
                {author(reply.authorKind)}
              </span>
              <time dateTime={reply.createdAt} className="text-stone-500">
                {formatDate(reply.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
              </time>
            </p>
            <p className="mt-1.5 leading-relaxed [overflow-wrap:anywhere] whitespace-pre-wrap text-stone-800">
              {reply.body}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
