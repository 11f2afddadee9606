import { useFormContext } from 'react-hook-form';
import { SIZE_GUIDE_MEASURES, SIZE_GUIDE_VALUE_MAX_LENGTH, type Size } from '#common/schemas/product';
import { MEASURE_LABELS, type ProductFormValues } from './product-form-values';

/** The optional size guide: inches per measure for each chosen size, folded away by default. */
export function ProductSizeGuideFields({ sizes }: { sizes: Size[] }) {
  const { register } = useFormContext<ProductFormValues>();
  return (
    <details className="group rounded-xl border border-stone-200 open:bg-stone-50/50">
      <summary className="cursor-pointer list-none rounded-xl px-4 py-3 text-sm font-medium text-stone-800 select-none">
        <span
          className="mr-2 inline-block text-stone-400 transition-transform group-open:rotate-90"
          aria-hidden="true"
        >
          ›
        </span>
        Size guide <span className="font-normal text-stone-500">(optional, inches)</span>
      </summary>
      <div className="overflow-x-auto px-4 pb-4">
        <table className="text-sm" aria-label="Size guide">
          <thead>
            <tr>
              <th scope="col" className="pr-3 pb-2 text-left text-xs font-medium text-stone-500">
                <span className="sr-only">Measure</span>
              </th>
              {sizes.map((size) => (
                <th
                  key={size}
                  scope="col"
                  className="px-1 pb-2 text-center text-xs font-medium text-stone-500"
                >
                  {size}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {SIZE_GUIDE_MEASURES.map((measure) => (
              <tr key={measure}>
                <th scope="row" className="pr-3 text-left text-xs font-medium text-stone-600">
                  {MEASURE_LABELS[measure]}
                </th>
                {sizes.map((size) => (
                  <td key={size} className="px-1 py-1">
                    <input
                      {...register(`sizeGuide.${measure}.${size}`)}
                      aria-label={`${MEASURE_LABELS[measure]} for size ${size}`}
                      placeholder="—"
                      maxLength={SIZE_GUIDE_VALUE_MAX_LENGTH}
                      className="h-9 w-20 rounded-lg border border-stone-300 bg-white px-2 text-center text-sm focus:border-rose-600 focus:ring-4 focus:ring-rose-600/15 focus:outline-none"
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
