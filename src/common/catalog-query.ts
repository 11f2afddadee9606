/**
 * The shop grid's filters and order as they live in the URL (`/?gender=womens&size=M&sort=price-asc`):
 * shareable, restored by Back. Plain functions, no schema library: the browser reads the URL with
 * these in its first load; the server validates the API's query with the zod schema built on the
 * same lists (schemas/product.ts).
 */
import {
  GENDERS,
  SIZES,
  isCategory,
  isCategoryOfGender,
  type Category,
  type Gender,
  type Size,
} from './catalog';

export const PRODUCT_SORTS = ['newest', 'price-asc', 'price-desc'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const PRODUCT_SORT_LABELS: Record<ProductSort, string> = {
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
};

/** Products per page of the grid (the first page is in the server's HTML; Show more asks for the next). */
export const PRODUCT_PAGE_SIZE = 12;
/** The most products one request of the list may ask for (`?limit=`). */
export const PRODUCT_PAGE_SIZE_MAX = 48;

/** What the grid shows; undefined means "all" (or the default order, newest first). */
export interface ProductFilters {
  gender?: Gender | undefined;
  category?: Category | undefined;
  size?: Size | undefined;
  sort?: ProductSort | undefined;
}

const isOneOf = <T extends string>(list: readonly T[], value: string | null): value is T =>
  value !== null && (list as readonly string[]).includes(value);

/** Whether the filters leave out some products (the order does not): an empty grid is then no match. */
export function narrowsCatalogue(filters: ProductFilters): boolean {
  return Boolean(filters.gender || filters.category || filters.size);
}

/** The filters a URL asks for; anything unknown or contradictory is ignored (a shared link never breaks). */
export function productFiltersFromSearch(search: URLSearchParams): ProductFilters {
  const gender = search.get('gender');
  const category = search.get('category');
  const size = search.get('size');
  const sort = search.get('sort');
  const filters: ProductFilters = {};
  if (isOneOf(GENDERS, gender)) filters.gender = gender;
  if (
    category !== null &&
    isCategory(category) &&
    (!filters.gender || isCategoryOfGender(category, filters.gender))
  )
    filters.category = category;
  if (isOneOf(SIZES, size)) filters.size = size;
  if (isOneOf(PRODUCT_SORTS, sort) && sort !== 'newest') filters.sort = sort;
  return filters;
}

/** The URL query of a set of filters (defaults left out, so the plain shop is `/`). */
export function productFiltersToSearch(filters: ProductFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.gender) search.set('gender', filters.gender);
  if (filters.category) search.set('category', filters.category);
  if (filters.size) search.set('size', filters.size);
  if (filters.sort && filters.sort !== 'newest') search.set('sort', filters.sort);
  return search;
}
