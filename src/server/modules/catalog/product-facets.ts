import { CATEGORIES, GENDERS, SIZES } from '#common/catalog';
import type { ProductFilters } from '#common/catalog-query';
import type { ProductFacets } from '#common/schemas/product';

/** One row of product_counts (migration 0020): size '' counts every product of its gender and category. */
export interface ProductCountRow {
  gender: string;
  category: string;
  size: string;
  count: number;
}

/**
 * How many products each filter choice would show, from the per gender, category and size counts.
 * Each facet counts with the other filters applied and its own left out (as shops show them): the
 * sizes under the chosen gender and category, the categories under the chosen gender and size, the
 * genders under the chosen size (a category belongs to one gender, so choosing a gender drops it).
 */
export function productFacets(rows: readonly ProductCountRow[], filters: ProductFilters): ProductFacets {
  const sizeKey = filters.size ?? '';
  const genders = Object.fromEntries(GENDERS.map((g) => [g, 0])) as ProductFacets['genders'];
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c.value, 0])) as ProductFacets['categories'];
  const sizes = Object.fromEntries(SIZES.map((s) => [s, 0])) as ProductFacets['sizes'];
  for (const row of rows) {
    const gender = row.gender as keyof typeof genders;
    const category = row.category as keyof typeof categories;
    const ofGender = !filters.gender || filters.gender === gender;
    if (row.size === sizeKey) {
      if (gender in genders) genders[gender] += row.count;
      if (ofGender && category in categories) categories[category] += row.count;
    }
    if (row.size !== '' && ofGender && (!filters.category || filters.category === category)) {
      const size = row.size as keyof typeof sizes;
      if (size in sizes) sizes[size] += row.count;
    }
  }
  return { genders, categories, sizes };
}
