import { useState, type ReactNode } from 'react';
import type { ProductFilters } from '../api/catalog-keys';
import { ProductFilterBar } from './product-filters';
import { ProductGrid } from './product-grid';

/** The shop: filters above the grid. The filters live as long as the landing page does. */
export function ProductBrowser({ heading }: { heading: ReactNode }) {
  const [filters, setFilters] = useState<ProductFilters>({});
  return (
    <>
      <div className="flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between">
        <div className="max-w-2xl">{heading}</div>
        <ProductFilterBar filters={filters} onChange={setFilters} />
      </div>
      <div className="mt-6 sm:mt-8 lg:mt-6">
        <ProductGrid filters={filters} />
      </div>
    </>
  );
}
