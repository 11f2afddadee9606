import { describe, expect, it } from 'vitest';
import { productFacets, type ProductCountRow } from './product-facets';

// Two women's leggings (one in XS and S, one in S), one men's top in M.
const rows: ProductCountRow[] = [
  { gender: 'womens', category: 'womens-leggings', size: '', count: 2 },
  { gender: 'womens', category: 'womens-leggings', size: 'XS', count: 1 },
  { gender: 'womens', category: 'womens-leggings', size: 'S', count: 2 },
  { gender: 'mens', category: 'mens-tops', size: '', count: 1 },
  { gender: 'mens', category: 'mens-tops', size: 'M', count: 1 },
];

describe('productFacets', () => {
  it('counts every choice when nothing is chosen', () => {
    const f = productFacets(rows, {});
    expect(f.genders).toEqual({ womens: 2, mens: 1 });
    expect(f.categories['womens-leggings']).toBe(2);
    expect(f.categories['mens-tops']).toBe(1);
    expect(f.categories['womens-bras']).toBe(0);
    expect(f.sizes).toEqual({ XS: 1, S: 2, M: 1, L: 0, XL: 0 });
  });

  it('counts each facet under the other filters, not its own', () => {
    const f = productFacets(rows, { gender: 'womens', size: 'XS' });
    // Genders under size XS: the men's top is not offered in XS.
    expect(f.genders).toEqual({ womens: 1, mens: 0 });
    // Categories under women's and XS.
    expect(f.categories['womens-leggings']).toBe(1);
    expect(f.categories['mens-tops']).toBe(0);
    // Sizes under women's (the chosen size does not narrow its own facet).
    expect(f.sizes).toEqual({ XS: 1, S: 2, M: 0, L: 0, XL: 0 });
  });

  it('narrows the sizes by the chosen category', () => {
    const f = productFacets(rows, { category: 'mens-tops' });
    expect(f.sizes).toEqual({ XS: 0, S: 0, M: 1, L: 0, XL: 0 });
  });
});
