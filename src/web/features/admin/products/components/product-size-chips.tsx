import type { Product } from '#common/schemas/product';
import { cn } from '#web/lib/cn';

/** The offered sizes; with stock per size, each with its units on hand (a sold-out one in rose). */
export function SizeChips({ product }: { product: Product }) {
  const stock = product.sizeStock;
  return (
    <span className="flex flex-wrap gap-1">
      {product.sizes.map((size) => {
        const units = stock?.[size];
        return (
          <span
            key={size}
            className={cn(
              'inline-flex h-6 min-w-7 items-center justify-center gap-1 rounded-md px-1.5 text-[11px] font-medium',
              units === 0 ? 'bg-rose-50 text-rose-700' : 'bg-stone-100 text-stone-700',
            )}
          >
            {size}
            {units === undefined ? null : (
              <span className="font-normal tabular-nums opacity-75">
                <span className="sr-only">: </span>
                {units}
              </span>
            )}
          </span>
        );
      })}
    </span>
  );
}
