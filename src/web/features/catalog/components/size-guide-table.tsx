import type { SizeGuide } from '#common/schemas/product';
import { SIZE_GUIDE_MEASURES } from '#common/catalog';

const measureLabels = { waist: 'Waist', hip: 'Hip', bust: 'Bust' } as const;

/** Size guide (spec §2): a row per size, columns waist, hip and bust in inches, only those present. */
export function SizeGuideTable({ sizes, guide }: { sizes: readonly string[]; guide: SizeGuide | null }) {
  const measures = SIZE_GUIDE_MEASURES.filter((m) => guide?.[m]?.some((v) => v.trim() !== ''));
  if (!guide || measures.length === 0 || sizes.length === 0) return null;
  return (
    <div className="overflow-hidden rounded-xl ring-1 ring-stone-200">
      <table className="w-full text-left text-sm">
        <caption className="bg-stone-50 px-4 py-2.5 text-left text-xs font-semibold tracking-[0.12em] text-stone-600 uppercase">
          Size guide (inches)
        </caption>
        <thead className="border-y border-stone-200 text-stone-500">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Size
            </th>
            {measures.map((m) => (
              <th key={m} scope="col" className="px-4 py-2 font-medium">
                {measureLabels[m]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100 text-stone-800 tabular-nums">
          {sizes.map((size, i) => (
            <tr key={size}>
              <th scope="row" className="px-4 py-2 font-semibold text-stone-950">
                {size}
              </th>
              {measures.map((m) => (
                <td key={m} className="px-4 py-2">
                  {guide[m]?.[i] || '—'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
