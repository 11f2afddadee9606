import { useEffect, useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { MAX_QUANTITY, type Size } from '#common/schemas/product';
import { cn } from '#web/lib/cn';
import { sizeStockFromForm, type ProductFormValues } from './product-form-values';

/**
 * "Stock per size": a switch under Quantity and, when on, a quantity per offered size. Their sum
 * is the product's Quantity (kept in the Quantity field, which is then read-only); switching it
 * off keeps that total as the one Quantity. `held` is what open checkouts hold per size.
 */
export function ProductSizeStockFields({ held }: { held: Partial<Record<Size, number>> | undefined }) {
  const {
    control,
    register,
    setValue,
    formState: { errors },
  } = useFormContext<ProductFormValues>();
  const [isOn, sizes, sizeStock] = useWatch({ control, name: ['stockPerSize', 'sizes', 'sizeStock'] });
  const ids = { label: useId(), hint: useId(), error: useId() };
  const total = sizeStockFromForm({ sizes, sizeStock }).total;

  // The Quantity follows the sizes while the switch is on.
  useEffect(() => {
    if (isOn) setValue('quantity', String(total), { shouldDirty: true });
  }, [isOn, total, setValue]);

  const error = errors.sizeStock?.message;
  return (
    <div className="rounded-xl bg-stone-50 p-3.5 ring-1 ring-stone-200/80">
      <label className="flex cursor-pointer items-center justify-between gap-3">
        <span>
          <span id={ids.label} className="block text-sm font-medium text-stone-800">
            Stock per size
          </span>
          <span id={ids.hint} className="mt-0.5 block text-xs text-stone-500">
            {isOn ? 'Quantity is the sum of the sizes' : 'Track each size’s units apart'}
          </span>
        </span>
        <input
          type="checkbox"
          role="switch"
          aria-describedby={ids.hint}
          className="peer sr-only"
          {...register('stockPerSize')}
        />
        <span
          aria-hidden="true"
          className="relative inline-flex h-6 w-11 shrink-0 rounded-full bg-stone-300 transition-colors peer-checked:bg-rose-600 peer-focus-visible:ring-2 peer-focus-visible:ring-rose-500 peer-focus-visible:ring-offset-2 after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow-sm after:transition-transform peer-checked:after:translate-x-5"
        />
      </label>

      {isOn ? (
        sizes.length === 0 ? (
          <p className="mt-3 text-xs text-stone-500">Choose the sizes first.</p>
        ) : (
          <div
            role="group"
            aria-labelledby={ids.label}
            aria-describedby={error ? ids.error : undefined}
            className="mt-3.5 grid grid-cols-3 gap-2 sm:grid-cols-5 lg:grid-cols-3"
          >
            {sizes.map((size) => {
              const inCheckouts = held?.[size] ?? 0;
              return (
                <label key={size} className="block min-w-0">
                  <span className="flex items-baseline justify-between px-0.5 text-xs font-semibold tracking-wide text-stone-600">
                    {size}
                    {inCheckouts > 0 ? (
                      <span className="font-normal text-stone-400" title="Held by open checkouts">
                        {inCheckouts} held
                      </span>
                    ) : null}
                  </span>
                  <input
                    {...register(`sizeStock.${size}`)}
                    type="number"
                    inputMode="numeric"
                    min={inCheckouts}
                    max={MAX_QUANTITY}
                    step={1}
                    placeholder="0"
                    aria-label={`Quantity in ${size}`}
                    aria-invalid={error ? true : undefined}
                    className={cn(
                      'mt-1 h-10 w-full min-w-0 rounded-lg border bg-white px-2.5 text-sm text-stone-900 tabular-nums shadow-xs outline-none focus-visible:border-rose-500 focus-visible:ring-2 focus-visible:ring-rose-500/30',
                      error ? 'border-red-400' : 'border-stone-300',
                    )}
                  />
                </label>
              );
            })}
          </div>
        )
      ) : null}
      {isOn && error ? (
        <p id={ids.error} className="mt-2 text-xs font-medium text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
