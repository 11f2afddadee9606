import { describe, expect, it } from 'vitest';
import { narrowsCatalogue, productFiltersFromSearch } from './catalog-query';

describe('narrowsCatalogue', () => {
  it('is true for any filter that leaves products out, false for none or an order alone', () => {
    expect(narrowsCatalogue({})).toBe(false);
    expect(narrowsCatalogue({ sort: 'price-asc' })).toBe(false);
    expect(narrowsCatalogue({ gender: 'womens' })).toBe(true);
    expect(narrowsCatalogue(productFiltersFromSearch(new URLSearchParams('category=womens-leggings')))).toBe(
      true,
    );
    expect(narrowsCatalogue({ size: 'XS' })).toBe(true);
  });
});
