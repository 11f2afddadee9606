import { availableInSize, isLowStock } from '#common/catalog';
import type { Product } from '#common/schemas/product';
import { useUntilLive } from '#web/lib/until-live';

/** Whether a shopper can still buy the product in this size (its own units when tracked apart). */
export function isSizeSoldOut(product: Pick<Product, 'quantity' | 'sizeStock'>, size: string): boolean {
  return availableInSize(product, size) <= 0;
}

/**
 * The modal's size buttons (5 columns). With stock per size, a sold-out size is disabled and
 * struck through ('XS, sold out' to a screen reader).
 */
export function SizeButtons({
  product,
  chosen,
  onChoose,
  optionClasses,
}: {
  product: Pick<Product, 'sizes' | 'quantity' | 'sizeStock'>;
  chosen: string;
  onChoose: (size: string) => void;
  optionClasses: (isSelected: boolean) => string;
}) {
  const untilLive = useUntilLive();
  return (
    <div className="grid grid-cols-5 gap-2">
      {product.sizes.map((s) => {
        const soldOut = isSizeSoldOut(product, s);
        return (
          <button
            key={s}
            type="button"
            aria-pressed={s === chosen}
            disabled={soldOut}
            aria-disabled={soldOut || undefined}
            aria-label={soldOut ? `${s}, sold out` : undefined}
            onClick={() => onChoose(s)}
            {...untilLive}
            className={
              soldOut
                ? // Not faded further while the page comes live: it is already as quiet as it may be.
                  'h-11 cursor-not-allowed rounded-xl border border-dashed border-stone-300 bg-stone-50 text-sm font-medium text-stone-400 line-through decoration-stone-400'
                : optionClasses(s === chosen)
            }
          >
            {s}
          </button>
        );
      })}
    </div>
  );
}

/**
 * 'Only N left in M' for the chosen size when the product tracks its sizes apart and that size
 * is low (the same 1 to 5 as the product's 'Only N left in stock!'); nothing otherwise.
 */
export function SizeLowStockNote({
  product,
  size,
}: {
  product: Pick<Product, 'quantity' | 'sizeStock'>;
  size: string;
}) {
  const units = product.sizeStock && size ? availableInSize(product, size) : 0;
  const text = product.sizeStock && size && isLowStock(units) ? `Only ${units} left in ${size}` : '';
  return (
    <p aria-live="polite" className={text ? 'mt-2.5 text-sm font-medium text-rose-700' : undefined}>
      {text}
    </p>
  );
}
