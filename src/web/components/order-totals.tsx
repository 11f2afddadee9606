import { formatUsd, TOKEN_DISCOUNT_PERCENT } from '#common/money';
import { cn } from '#web/lib/cn';

export interface OrderTotalsProps {
  subtotalCents: number;
  shippingCents: number;
  /** The AELO discount; its line shows only when there is one. */
  discountCents: number;
  /** What the order charged. */
  totalCents: number;
  /** Order-scope refunds that have not failed; with any, "Refunded" and "Net paid" follow the total. */
  refundedCents?: number;
  size?: 'sm' | 'md';
  className?: string;
}

/** The order's money, line by line: subtotal, shipping, the AELO discount, total, refunds. */
export function OrderTotals({
  subtotalCents,
  shippingCents,
  discountCents,
  totalCents,
  refundedCents = 0,
  size = 'md',
  className,
}: OrderTotalsProps) {
  const row = 'flex justify-between gap-3';
  return (
    <dl data-order-totals="" className={cn('space-y-1.5 text-sm tabular-nums', className)}>
      <div className={cn(row, 'text-stone-600')}>
        <dt>Subtotal</dt>
        <dd>{formatUsd(subtotalCents)}</dd>
      </div>
      <div className={cn(row, 'text-stone-600')}>
        <dt>Shipping</dt>
        <dd>{shippingCents === 0 ? 'Free' : formatUsd(shippingCents)}</dd>
      </div>
      {discountCents > 0 ? (
        <div className={cn(row, 'text-emerald-700')}>
          <dt>AELO discount ({TOKEN_DISCOUNT_PERCENT}% off)</dt>
          <dd>−{formatUsd(discountCents)}</dd>
        </div>
      ) : null}
      <div
        className={cn(
          row,
          'border-t border-stone-200/80 pt-2 font-semibold text-stone-950',
          size === 'md' && 'text-base',
        )}
      >
        <dt>Total</dt>
        <dd>{formatUsd(totalCents)}</dd>
      </div>
      {refundedCents > 0 ? (
        <>
          <div className={cn(row, 'text-rose-700')}>
            <dt>Refunded</dt>
            <dd>−{formatUsd(refundedCents)}</dd>
          </div>
          <div className={cn(row, 'font-semibold text-stone-950')}>
            <dt>Net paid</dt>
            <dd>{formatUsd(Math.max(0, totalCents - refundedCents))}</dd>
          </div>
        </>
      ) : null}
    </dl>
  );
}
