import { formatUsd } from '#common/money';
import { US_STATES } from '#common/us-states';
import { useCartStore } from '../stores/cart-store';
import { useCheckoutStore } from '../stores/checkout-store';

const stateName = (code: string) => US_STATES.find(([c]) => c === code)?.[1] ?? code;

/** The payment step's review: what is being bought and where it goes, before paying. */
export function OrderReview() {
  const items = useCartStore((s) => s.items);
  const ship = useCheckoutStore((s) => s.shippingInfo);
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
