import { cn } from '#web/lib/cn';
import { ChevronDown } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import type { Gender, ProductFacets } from '#common/schemas/product';
import {
  CATEGORIES,
  GENDER_LABELS,
  GENDERS,
  categoriesForGender,
  isCategory,
  isCategoryOfGender,
  SIZES,
  type Category,
} from '#common/catalog';
import { PRODUCT_SORT_LABELS, PRODUCT_SORTS } from '#common/catalog-query';
import type { ProductFilters } from '../api/catalog-keys';
import { useHydrated } from '#web/lib/after-hydration';
import { UNTIL_LIVE_CLASSES, useUntilLive } from '#web/lib/until-live';

const genderOptions: Array<{ value: Gender | undefined; label: string }> = [
  { value: undefined, label: 'All' },
  ...GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] })),
];

/**
 * The shop's filters (spec §2): gender (All / Women's / Men's) and category, plus a size and the
 * order (newest, or by price). With a gender chosen, the categories are that gender's; with All,
 * both lists, grouped. Choosing a gender drops a category that does not belong to it.
 */
export function ProductFilterBar({
  filters,
  facets,
  onChange,
}: {
  filters: ProductFilters;
  /** How many products each choice would show (absent while the first page loads). */
  facets?: ProductFacets | undefined;
  onChange: (filters: ProductFilters) => void;
}) {
  // "Leggings (8)"; a choice that would show nothing is disabled, unless it is the current one.
  const counted = (label: string, count: number | undefined) =>
    count === undefined ? label : `${label} (${count})`;
  const isEmpty = (count: number | undefined, chosen: boolean) => count === 0 && !chosen;
  const genderTotal = facets ? GENDERS.reduce((sum, g) => sum + facets.genders[g], 0) : undefined;
  const categoryTotal = facets
    ? CATEGORIES.filter((c) => !filters.gender || c.gender === filters.gender).reduce(
        (sum, c) => sum + facets.categories[c.value],
        0,
      )
    : undefined;
  const categoryOption = (c: { value: Category; label: string }) => {
    const count = facets?.categories[c.value];
    return (
      <option key={c.value} value={c.value} disabled={isEmpty(count, filters.category === c.value)}>
        {counted(c.label, count)}
      </option>
    );
  };
  const setGender = (gender: Gender | undefined) => {
    const keep = gender && filters.category && isCategoryOfGender(filters.category, gender);
    onChange({ ...filters, gender, category: keep || !gender ? filters.category : undefined });
  };
  const setCategory = (value: string) => {
    onChange({ ...filters, category: isCategory(value) ? value : undefined });
  };
  const setSize = (value: string) => {
    onChange({ ...filters, size: SIZES.find((s) => s === value) });
  };
  const untilLive = useUntilLive();
  const setSort = (value: string) => {
    onChange({ ...filters, sort: PRODUCT_SORTS.find((s) => s === value && s !== 'newest') });
  };

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <div role="group" aria-label="Gender" className="inline-flex rounded-full bg-stone-100 p-1">
        {genderOptions.map((option) => {
          const isActive = filters.gender === option.value;
          return (
            <button
              key={option.label}
              type="button"
              aria-pressed={isActive}
              onClick={() => setGender(option.value)}
              {...untilLive}
              className={cn(
                'h-9 flex-1 rounded-full px-4 text-sm font-medium whitespace-nowrap transition-colors sm:flex-none',
                UNTIL_LIVE_CLASSES,
                isActive ? 'bg-white text-stone-950 shadow-sm' : 'text-stone-600 hover:text-stone-950',
              )}
            >
              {option.label}
              {facets ? (
                <span
                  className={cn(
                    'ml-1.5 text-xs tabular-nums',
                    isActive ? 'text-stone-500' : 'text-stone-600',
                  )}
                  aria-hidden="true"
                >
                  {option.value ? facets.genders[option.value] : genderTotal}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      <FilterSelect
        label="Category"
        value={filters.category ?? ''}
        onChange={setCategory}
        className="sm:w-56"
      >
        <option value="">{counted('All categories', categoryTotal)}</option>
        {filters.gender
          ? categoriesForGender(filters.gender).map(categoryOption)
          : GENDERS.map((gender) => (
              <optgroup key={gender} label={GENDER_LABELS[gender]}>
                {CATEGORIES.filter((c) => c.gender === gender).map(categoryOption)}
              </optgroup>
            ))}
      </FilterSelect>
      <div className="grid grid-cols-[minmax(0,3fr)_minmax(0,4fr)] gap-3 sm:flex">
        <FilterSelect label="Size" value={filters.size ?? ''} onChange={setSize} className="sm:w-36">
          <option value="">All sizes</option>
          {SIZES.map((size) => (
            <option key={size} value={size} disabled={isEmpty(facets?.sizes[size], filters.size === size)}>
              {counted(`Size ${size}`, facets?.sizes[size])}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Sort by" value={filters.sort ?? 'newest'} onChange={setSort} className="sm:w-48">
          {PRODUCT_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {PRODUCT_SORT_LABELS[sort]}
            </option>
          ))}
        </FilterSelect>
      </div>
    </div>
  );
}

/** A labelled select in the shop's pill style (the label is for screen readers). */
function FilterSelect({
  label,
  value,
  onChange,
  className,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  // Disabled until the page is live: a choice made before would be undone by hydration.
  const live = useHydrated();
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={!live}
        className={cn(
          'h-11 w-full appearance-none rounded-full border border-stone-200 bg-white pr-9 pl-4 text-sm font-medium text-stone-800 transition-colors hover:border-stone-400',
          'disabled:cursor-progress disabled:opacity-60 disabled:transition-opacity disabled:delay-600 disabled:duration-200 starting:disabled:opacity-100',
          className,
        )}
      >
        {children}
      </select>
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-4 size-4 -translate-y-1/2 text-stone-500"
        aria-hidden="true"
      />
    </div>
  );
}
