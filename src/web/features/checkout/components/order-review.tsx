import { formatUsd, TOKEN_DISCOUNT_PERCENT } from '#common/money';
import { TOKEN_SYMBOL } from '#common/token';
import { US_STATES } from '#common/us-states';
import { useCartStore } from '../stores/cart-store';
import { useCheckoutStore } from '../stores/checkout-store';

const stateName = (code: string) => US_STATES.find(([c]) => c === code)?.[1] ?? code;

/**
 * The payment step's review: what is being bought and where it goes, before paying. While a crypto
 * payment is on screen, its amounts as the server priced them, with the AELO discount line.
 */
export function OrderReview() {
  const items = useCartStore((s) => s.items);
  const ship = useCheckoutStore((s) => s.shippingInfo);
  const quote = useCheckoutStore((s) => s.quote);
  const amounts = quote?.amounts;
  return (
    <section
      aria-labelledby="order-review-title"
      className="rounded-2xl bg-stone-50 p-4 ring-1 ring-stone-200/70"
    >
      <h3 id="order-review-title" className="text-sm font-semibold text-stone-950">
        Review your order
      </h3>
      <ul aria-label="Items" className="mt-3 space-y-2.5">
        {items.map((item) => (
          <li
            key={`${item.productId}|${item.selectedSize}|${item.selectedColor}`}
            className="flex items-baseline justify-between gap-3 text-sm"
          >
            <span className="min-w-0 text-stone-700">
              <span className="font-medium text-stone-950">{item.title}</span>
              {[item.selectedSize && `Size ${item.selectedSize}`, item.selectedColor, `Qty ${item.quantity}`]
                .filter(Boolean)
                .map((part) => ` · ${part}`)
                .join('')}
            </span>
            <span className="shrink-0 font-medium text-stone-950 tabular-nums">
              {formatUsd(item.priceCents * item.quantity)}
            </span>
          </li>
        ))}
      </ul>
      {amounts ? (
        <dl
          aria-label="Amount due"
          className="mt-3 space-y-1.5 border-t border-stone-200 pt-3 text-sm"
          data-testid="review-amounts"
        >
          <div className="flex justify-between gap-3">
            <dt className="text-stone-600">Subtotal</dt>
            <dd className="text-stone-900 tabular-nums">{formatUsd(amounts.subtotalCents)}</dd>
          </div>
          <div className="flex justify-between gap-3">
            <dt className="text-stone-600">Shipping</dt>
            <dd className="text-stone-900 tabular-nums">
              {amounts.shippingCents === 0 ? 'Free' : formatUsd(amounts.shippingCents)}
            </dd>
          </div>
          {amounts.discountCents > 0 ? (
            <div className="flex justify-between gap-3" data-testid="review-discount">
              <dt className="text-rose-700">
                {TOKEN_SYMBOL} discount ({TOKEN_DISCOUNT_PERCENT}% off)
              </dt>
              <dd className="font-medium text-rose-700 tabular-nums">−{formatUsd(amounts.discountCents)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-3 pt-1">
            <dt className="font-semibold text-stone-950">Total</dt>
            <dd className="font-semibold text-stone-950 tabular-nums" data-testid="review-total">
              {formatUsd(amounts.totalCents)}
            </dd>
          </div>
        </dl>
      ) : null}
      <div className="mt-4 border-t border-stone-200 pt-3 text-sm">
        <p className="text-xs font-semibold tracking-[0.12em] text-stone-600 uppercase">Ship to</p>
        <address className="mt-1.5 leading-relaxed text-stone-700 not-italic">
          {ship.firstName} {ship.lastName}
          <br />
          {ship.address}
          <br />
          {ship.city}, {stateName(ship.state)} {ship.zipCode}
          <br />
          {ship.email} · {ship.phone}
        </address>
      </div>
    </section>
  );
}
