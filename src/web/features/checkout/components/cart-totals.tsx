import { cn } from '#web/lib/cn';
import { FREE_SHIPPING_THRESHOLD_CENTS, formatUsd, type CartTotals } from '#common/money';
import { useCartTotals } from '../stores/cart-store';

/** Subtotal, shipping and total as a definition list; `totals` defaults to the cart's own. */
export function CartTotalsList({
  totals: given,
  showFreeShippingHint = false,
  className,
}: {
  totals?: CartTotals;
  showFreeShippingHint?: boolean;
  className?: string;
}) {
  const own = useCartTotals();
  const totals = given ?? own;
  const missing = FREE_SHIPPING_THRESHOLD_CENTS - totals.subtotalCents;
  return (
    <div className={className}>
      <dl className="space-y-2 text-sm" aria-label="Order summary">
        <div className="flex items-center justify-between gap-4">
          <dt className="text-stone-600">Subtotal</dt>
          <dd className="font-medium text-stone-900 tabular-nums" data-testid="subtotal">
            {formatUsd(totals.subtotalCents)}
          </dd>
        </div>
        <div className="flex items-center justify-between gap-4">
          <dt className="text-stone-600">Shipping</dt>
          <dd
            className={cn(
              'font-medium tabular-nums',
              totals.shippingCents === 0 ? 'text-emerald-700' : 'text-stone-900',
            )}
            data-testid="shipping"
          >
            {totals.shippingCents === 0 ? 'Free' : formatUsd(totals.shippingCents)}
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-4 border-t border-stone-200 pt-3">
          <dt className="text-[15px] font-semibold text-stone-950">Total</dt>
          <dd
            className="text-lg font-semibold tracking-tight text-stone-950 tabular-nums"
            data-testid="total"
          >
            {formatUsd(totals.totalCents)}
          </dd>
        </div>
      </dl>
      {showFreeShippingHint && totals.subtotalCents > 0 && missing > 0 ? (
        <FreeShippingMeter subtotalCents={totals.subtotalCents} missingCents={missing} />
      ) : null}
    </div>
  );
}

function FreeShippingMeter({ subtotalCents, missingCents }: { subtotalCents: number; missingCents: number }) {
  const percent = Math.min(100, Math.round((subtotalCents / FREE_SHIPPING_THRESHOLD_CENTS) * 100));
  return (
    <div className="mt-4">
      <p className="text-xs text-stone-600">
        {missingCents > 0 ? (
          <>
            Add <span className="font-semibold text-stone-900 tabular-nums">{formatUsd(missingCents)}</span>{' '}
            more for free shipping.
          </>
        ) : (
          <span className="font-medium text-emerald-700">Your order ships free.</span>
        )}
      </p>
      <div
        className="mt-2 h-1 overflow-hidden rounded-full bg-stone-100"
        role="progressbar"
        aria-label="Progress to free shipping"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div
          className={cn('h-full rounded-full', missingCents > 0 ? 'bg-rose-500' : 'bg-emerald-500')}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
