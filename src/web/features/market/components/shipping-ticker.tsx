import { Truck } from 'lucide-react';
import { Marquee } from './marquee';

export const SHIPPING_TICKER_TEXT = 'Free Shipping on Orders Over $50!';

/** Ticker 2 (spec §2): the free-shipping line, scrolling. */
export function ShippingTicker() {
  return (
    <section
      aria-label="Shipping offer"
      className="flex h-9 items-center border-b border-rose-100 bg-rose-50"
    >
      <Marquee durationSeconds={60} className="w-full">
        {[0, 1, 2].map((i) => (
          <span
            key={i}
            aria-hidden={i > 0 || undefined}
            className="flex items-center gap-2.5 px-8 text-[13px] font-medium whitespace-nowrap text-rose-700"
          >
            <Truck className="size-4" strokeWidth={1.75} aria-hidden="true" />
            {SHIPPING_TICKER_TEXT}
          </span>
        ))}
      </Marquee>
    </section>
  );
}
