import { ShoppingBag } from 'lucide-react';
import { CartLines } from './cart-lines';

/** Step 1: the lines, or the empty state. */
export function CartStep({ isEmpty, isBusy }: { isEmpty: boolean; isBusy: boolean }) {
  if (isEmpty) {
    return (
      <div className="flex flex-col items-center px-2 pt-14 pb-6 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-rose-50 text-rose-600">
          <ShoppingBag className="size-7" strokeWidth={1.5} aria-hidden="true" />
        </span>
        <p className="mt-6 text-lg font-semibold tracking-tight text-stone-950">Your cart is empty</p>
        <p className="mt-1.5 max-w-[16rem] text-sm leading-relaxed text-stone-500">
          Pre-loved, authenticated activewear. Find your next favorite piece.
        </p>
      </div>
    );
  }
  return <CartLines disabled={isBusy} />;
}
