import { CircleDashed, Undo2 } from 'lucide-react';
import { REFUND_STATUS_LABELS } from '#common/schemas/refund';
import type { ReceivedSoFar, RefundView } from '../hooks/use-crypto-payment-status';

const share = (part: string, whole: string): number => {
  const p = Number(part);
  const w = Number(whole);
  return Number.isFinite(p) && Number.isFinite(w) && w > 0 ? Math.min(100, Math.max(0, (p / w) * 100)) : 0;
};

/**
 * A part-paid crypto payment: what has arrived, what is left, and the server's own
 * message verbatim. Transfers naming the reference add up on the server; the order confirms once
 * they reach the amount due.
 */
export function ReceivedSoFarCard({
  received,
  message,
}: {
  received: ReceivedSoFar;
  message: string | null;
}) {
  const percent = Math.round(share(received.receivedText, received.dueText));
  return (
    <section
      aria-label="Payment received so far"
      className="rounded-2xl bg-amber-50/80 p-4 ring-1 ring-amber-200/80"
      data-testid="crypto-received"
    >
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-white text-amber-600 ring-1 ring-amber-200">
          <CircleDashed className="size-4.5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-stone-950">Part of your payment has arrived</p>
          <p className="mt-0.5 text-[13px] text-stone-600 tabular-nums" data-testid="crypto-received-amount">
            Received {received.receivedText} of {received.dueText} {received.symbol}
          </p>
        </div>
      </div>
      <div
        className="mt-3.5 h-1.5 overflow-hidden rounded-full bg-amber-100"
        role="progressbar"
        aria-label="Paid so far"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div
          className="h-full rounded-full bg-amber-500 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <div className="mt-3.5 flex items-baseline justify-between gap-3 rounded-xl bg-white px-3.5 py-2.5 ring-1 ring-amber-100">
        <p className="text-sm text-stone-600">Left to pay</p>
        <p className="text-base font-semibold text-amber-700 tabular-nums" data-testid="crypto-remaining">
          {received.remainingText} {received.symbol}
        </p>
      </div>
      {message ? (
        <p className="mt-3 text-[13px] leading-relaxed text-stone-700" role="status">
          {message}
        </p>
      ) : null}
    </section>
  );
}

/** Money being (or already) sent back for this payment, as the server reports it. */
export function RefundList({ refunds }: { refunds: readonly RefundView[] }) {
  if (refunds.length === 0) return null;
  return (
    <ul aria-label="Refunds" className="space-y-2">
      {refunds.map((refund, i) => (
        <li
          key={`${refund.amountText}-${i}`}
          className="flex items-center gap-3 rounded-xl bg-stone-50 px-3 py-2.5 text-sm ring-1 ring-stone-200"
        >
          <Undo2 className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
          <span className="min-w-0 flex-1">
            <span className="font-medium text-stone-950 tabular-nums">Refund of {refund.amountText}</span>
            <span className="block text-xs text-stone-500">{refund.reason}</span>
          </span>
          <span className="shrink-0 rounded-full bg-white px-2.5 py-0.5 text-xs font-medium text-stone-700 ring-1 ring-stone-200">
            {REFUND_STATUS_LABELS[refund.status]}
          </span>
        </li>
      ))}
    </ul>
  );
}
