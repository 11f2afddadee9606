import { Plus, X } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { COLOR_MAX_LENGTH, SIZES, sortSizes } from '#common/schemas/product';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { cn } from '#web/lib/cn';
import { Panel } from '#web/features/admin/shared/components/panel';
import type { ProductFormValues } from './product-form-values';
import { ProductSizeGuideFields } from './product-size-guide-fields';
import { RequiredMark } from './required-mark';

/** Sizes (toggle buttons), colours (added one by one) and, once there are sizes, the size guide. */
export function ProductVariantsFields() {
  const { control } = useFormContext<ProductFormValues>();
  const sizes = useController({ control, name: 'sizes' });
  const colors = useController({ control, name: 'colors' });
  const [colorDraft, setColorDraft] = useState('');
  const ids = { sizes: useId(), colors: useId() };

  const toggleSize = (size: (typeof SIZES)[number]) => {
    const current = sizes.field.value;
    sizes.field.onChange(
      sortSizes(current.includes(size) ? current.filter((s) => s !== size) : [...current, size]),
    );
  };

  const addColor = () => {
    const color = colorDraft.trim();
    setColorDraft('');
    if (color === '') return;
    if (!colors.field.value.some((c) => c.toLowerCase() === color.toLowerCase()))
      colors.field.onChange([...colors.field.value, color]);
  };

  const onColorKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      addColor();
    }
  };

  return (
    <Panel title="Variants" titleId="product-variants">
      <div className="space-y-6">
        <div role="group" aria-labelledby={ids.sizes}>
          <p id={ids.sizes} className="text-sm font-medium text-stone-800">
            <RequiredMark>Sizes</RequiredMark>
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            {SIZES.map((size) => {
              const isOn = sizes.field.value.includes(size);
              return (
                <button
                  key={size}
                  type="button"
                  aria-pressed={isOn}
                  onClick={() => toggleSize(size)}
                  className={cn(
                    'h-10 min-w-11 rounded-full border px-3 text-sm font-medium transition-colors sm:min-w-12 sm:px-4',
                    isOn
                      ? 'border-stone-950 bg-stone-950 text-white'
                      : sizes.fieldState.error
                        ? 'border-red-400 bg-white text-stone-700'
                        : 'border-stone-300 bg-white text-stone-700 hover:border-stone-900',
                  )}
                >
                  {size}
                </button>
              );
            })}
          </div>
        </div>

        <div>
          <Field label={<RequiredMark>Colors</RequiredMark>} error={colors.fieldState.error?.message}>
            <div className="flex gap-2">
              <Input
                name="color"
                value={colorDraft}
                onChange={(e) => setColorDraft(e.target.value)}
                onKeyDown={onColorKeyDown}
                placeholder="e.g. Black"
                maxLength={COLOR_MAX_LENGTH}
                autoComplete="off"
                required={false}
                aria-describedby={ids.colors}
              />
              <Button variant="outline" onClick={addColor} className="shrink-0">
                <Plus className="size-4" aria-hidden="true" />
                Add Color
              </Button>
            </div>
          </Field>
          <ul id={ids.colors} aria-label="Colors added" className="mt-3 flex flex-wrap gap-2">
            {colors.field.value.map((color) => (
              <li
                key={color}
                className="inline-flex h-8 items-center gap-1 rounded-full bg-stone-100 pr-1 pl-3 text-sm text-stone-800 ring-1 ring-stone-200"
              >
                {color}
                <button
                  type="button"
                  onClick={() => colors.field.onChange(colors.field.value.filter((c) => c !== color))}
                  aria-label={`Remove color ${color}`}
                  className="inline-flex size-6 items-center justify-center rounded-full text-stone-500 hover:bg-stone-200 hover:text-stone-900"
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        </div>

        {sizes.field.value.length > 0 ? <ProductSizeGuideFields sizes={sizes.field.value} /> : null}
      </div>
    </Panel>
  );
}
