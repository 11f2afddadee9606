import { CheckCircle2, Clock, ExternalLink, RotateCcw, XCircle } from 'lucide-react';
import { shortHash } from '#common/format';
import { formatUsd } from '#common/money';
import { REFUND_STATUS_LABELS, type Refund, type RefundStatus } from '#common/schemas/refund';
import { cn } from '#web/lib/cn';
import { useDateFormatter } from '#web/lib/local-time';

const STATUS_TONE: Record<RefundStatus, { tone: string; icon: typeof Clock }> = {
  pending: { tone: 'bg-amber-50 text-amber-800 ring-amber-200/70', icon: Clock },
  sent: { tone: 'bg-sky-50 text-sky-800 ring-sky-200/70', icon: Clock },
  awaiting_signature: { tone: 'bg-amber-50 text-amber-800 ring-amber-200/70', icon: Clock },
  succeeded: { tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200/70', icon: CheckCircle2 },
  failed: { tone: 'bg-red-50 text-red-800 ring-red-200/70', icon: XCircle },
};

/** Where the money went, as a short phrase. */
function destinationText(refund: Refund): string {
  if (refund.method === 'card') return 'To the card that paid';
  return refund.destination ? `To wallet ${shortHash(refund.destination)}` : 'To the paying wallet';
}

/**
 * An order's refunds, oldest first: amount (and the coins sent back for a crypto refund), status,
 * reason, date, and Stripe's refund id or the refund transaction linked to the explorer. Shown to
 * the admin, the signed-in customer and the guest alike.
 */
export function OrderRefunds({
  refunds,
  className,
  headingLevel = 3,
}: {
  refunds: Refund[];
  className?: string;
  headingLevel?: 2 | 3;
}) {
  const formatDate = useDateFormatter();
  if (refunds.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-label="Refunds" className={cn('min-w-0', className)}>
      <Heading className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-stone-500 uppercase">
        <RotateCcw className="size-3.5" aria-hidden="true" />
        Refunds
      </Heading>
      <ul className="mt-2 space-y-2">
        {refunds.map((refund) => {
          const status = STATUS_TONE[refund.status];
          const Icon = status.icon;
          return (
            <li
              key={refund.id}
              className="rounded-xl bg-white p-3 text-sm shadow-xs ring-1 ring-stone-200/80"
              data-refund-status={refund.status}
            >
              <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
                <p className="font-semibold text-stone-950 tabular-nums">
                  {formatUsd(refund.amountCents)}
                  {refund.cryptoAmountText && refund.cryptoSymbol ? (
                    <span className="ml-1.5 font-normal text-stone-500">
                      ({refund.cryptoAmountText} {refund.cryptoSymbol})
                    </span>
                  ) : null}
                </p>
                <span
                  className={cn(
                    'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1',
                    status.tone,
                  )}
                >
                  <Icon className="size-3" aria-hidden="true" />
                  {REFUND_STATUS_LABELS[refund.status]}
                </span>
              </div>
              <p className="mt-1 [overflow-wrap:anywhere] text-stone-700">{refund.reason}</p>
              {refund.error ? (
                <p className="mt-1 text-xs [overflow-wrap:anywhere] text-red-700">
                  Not refunded: {refund.error}. The amount can be refunded again.
                </p>
              ) : null}
              <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-stone-500">
                <time dateTime={refund.createdAt}>
                  {formatDate(refund.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
                </time>
                <span aria-hidden="true">·</span>
                <span>{destinationText(refund)}</span>
                {refund.scope === 'transfer' ? (
                  <>
                    <span aria-hidden="true">·</span>
                    <span>A payment the order did not need</span>
                  </>
                ) : null}
              </p>
              {refund.transactionSignature ? (
                <p className="mt-1 text-xs">
                  {refund.explorerUrl ? (
                    <a
                      href={refund.explorerUrl}
                      target="_blank"
                      rel="noreferrer noopener"
                      className="inline-flex items-center gap-1 font-mono text-rose-700 underline-offset-4 hover:underline"
                    >
                      {shortHash(refund.transactionSignature)}
                      <ExternalLink className="size-3" aria-hidden="true" />
                      <span className="sr-only">(view the refund on the explorer, opens in a new tab)</span>
                    </a>
                  ) : (
                    <span className="font-mono text-stone-600">{shortHash(refund.transactionSignature)}</span>
                  )}
                </p>
              ) : refund.stripeRefundId ? (
                <p className="mt-1 font-mono text-xs break-all text-stone-600">
                  <span className="sr-only">Stripe refund </span>
                  {refund.stripeRefundId}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
