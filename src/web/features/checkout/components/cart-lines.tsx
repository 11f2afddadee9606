import { ImageOff, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formatUsd } from '#common/money';
import {
  cartLineId,
  MAX_LINE_QUANTITY,
  maxQuantityFor,
  useCartStore,
  type CartItem,
} from '../stores/cart-store';

function LineImage({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div className="flex size-full items-center justify-center text-stone-300">
        <ImageOff className="size-5" aria-hidden="true" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className="size-full object-cover"
    />
  );
}

function CartLine({ item, disabled }: { item: CartItem; disabled: boolean }) {
  const setQuantity = useCartStore((s) => s.setQuantity);
  const removeItem = useCartStore((s) => s.removeItem);
  const max = maxQuantityFor(item);
  const options = Array.from({ length: max }, (_, i) => i + 1);
  const selectId = `qty-${cartLineId(item)}`;
  const details = [
    item.selectedSize ? `Size ${item.selectedSize}` : null,
    item.selectedColor ? `Color ${item.selectedColor}` : null,
  ].filter(Boolean);

  return (
    <li className="flex gap-4 py-5 first:pt-1" data-testid="cart-line" aria-label={item.title}>
      <div className="aspect-[4/5] w-20 shrink-0 overflow-hidden rounded-xl bg-stone-100 ring-1 ring-stone-900/5 sm:w-22">
        <LineImage src={item.image} alt="" />
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-start justify-between gap-3">
          <p className="line-clamp-2 text-[15px] leading-snug font-medium text-stone-900">{item.title}</p>
          <p
            className="shrink-0 text-[15px] font-semibold text-stone-950 tabular-nums"
            data-testid="line-total"
          >
            <span className="sr-only">Line total </span>
            {formatUsd(item.priceCents * item.quantity)}
          </p>
        </div>
        {details.length > 0 ? (
          <p className="mt-1 text-[13px] text-stone-500">
            {item.selectedSize ? (
              <span>
                Size <span className="font-medium text-stone-700">{item.selectedSize}</span>
              </span>
            ) : null}
            {item.selectedSize && item.selectedColor ? (
              <span aria-hidden="true" className="mx-1.5 text-stone-300">
                ·
              </span>
            ) : null}
            {item.selectedColor ? (
              <span>
                Color <span className="font-medium text-stone-700">{item.selectedColor}</span>
              </span>
            ) : null}
          </p>
        ) : null}
        <p className="mt-0.5 text-[13px] text-stone-500 tabular-nums">
          {formatUsd(item.priceCents)} each
          {item.stock < MAX_LINE_QUANTITY ? (
            <span className="font-medium text-rose-700"> · Only {item.stock} left</span>
          ) : null}
        </p>

        <div className="mt-auto flex items-center justify-between gap-3 pt-3">
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-[13px] text-stone-500">
              Qty
            </label>
            <select
              id={selectId}
              value={item.quantity}
              disabled={disabled}
              aria-label={`Quantity of ${item.title}`}
              onChange={(e) => setQuantity(item, Number(e.target.value))}
              className="h-9 rounded-lg border border-stone-300 bg-white pr-8 pl-3 text-sm font-medium text-stone-900 tabular-nums transition-colors hover:border-stone-400 focus:border-rose-600 focus:ring-4 focus:ring-rose-600/15 focus:outline-none disabled:opacity-50"
            >
              {options.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            disabled={disabled}
            onClick={() => removeItem(item)}
            aria-label={`Remove ${item.title}`}
            className="-mr-2 inline-flex h-9 items-center gap-1.5 rounded-full px-2.5 text-[13px] font-medium text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-900 disabled:opacity-50"
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}

/** The cart's lines: image, title, size, colour, quantity select (1 to 5, never above stock), remove, line total. */
export function CartLines({ disabled = false }: { disabled?: boolean }) {
  const items = useCartStore((s) => s.items);
  return (
    <ul aria-label="Cart items" className="divide-y divide-stone-100">
      {items.map((item) => (
        <CartLine key={cartLineId(item)} item={item} disabled={disabled} />
      ))}
    </ul>
  );
}
