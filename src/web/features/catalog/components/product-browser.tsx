import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { productFiltersFromSearch, productFiltersToSearch, type ProductFilters } from '#common/catalog-query';
import { ProductFilterBar } from './product-filters';
import { ProductGrid } from './product-grid';
import { useProducts } from '../api/get-products';

/**
 * The shop: filters above the grid. The filters live in the URL (`?gender=&category=&size=&sort=`):
 * a filtered shop can be shared, a reload keeps it, and each change is one step that Back undoes.
 * The page does not jump to the top when they change.
 */
export function ProductBrowser({ heading }: { heading: ReactNode }) {
  const [search, setSearch] = useSearchParams();
  const filters = productFiltersFromSearch(search);
  // The grid's own query (one request): its first page carries the filters' counts.
  const facets = useProducts(filters).data?.pages[0]?.facets;
  const change = (next: ProductFilters) => {
    // Navigations render in a transition, so the address can be ahead of this render (a second
    // filter chosen while the first is still rendering): apply what this change changed to the
    // filters in the address, so no earlier choice is lost.
    const inAddress = productFiltersFromSearch(new URLSearchParams(window.location.search));
    const keys = new Set([...Object.keys(filters), ...Object.keys(next)] as (keyof ProductFilters)[]);
    const merged: ProductFilters = { ...inAddress };
    for (const key of keys) {
      if (next[key] !== filters[key]) Object.assign(merged, { [key]: next[key] });
    }
    setSearch(productFiltersToSearch(merged), { preventScrollReset: true });
  };
  return (
    <>
      <div className="flex flex-col gap-5 xl:flex-row xl:items-end xl:justify-between">
        <div className="max-w-2xl">{heading}</div>
        <ProductFilterBar filters={filters} facets={facets} onChange={change} />
      </div>
      <div className="mt-6 sm:mt-8 xl:mt-6">
        <ProductGrid filters={filters} />
      </div>
    </>
  );
}
