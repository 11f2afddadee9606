/**
 * Catalogue constants and helpers without zod, so that the storefront's first load does not carry
 * the schema library: genders, categories, sizes, limits, stock rules, the admin spec's messages.
 * The zod schemas built on them live in schemas/product.ts, which re-exports everything here.
 */

// Genders ------------------------------------------------------------------------------------------

export const GENDERS = ['womens', 'mens'] as const;
export type Gender = (typeof GENDERS)[number];

export const GENDER_LABELS: Record<Gender, string> = { womens: "Women's", mens: "Men's" };

export function genderLabel(gender: Gender): string {
  return GENDER_LABELS[gender];
}

// Categories ---------------------------------------------------------------------------------------

/** Spec §3, in the spec's order: the label is the one the shop's category filter shows. */
export const CATEGORIES = [
  { value: 'womens-leggings', label: 'Leggings', gender: 'womens' },
  { value: 'womens-bras', label: 'Sports Bras', gender: 'womens' },
  { value: 'womens-tanks', label: 'Tanks', gender: 'womens' },
  { value: 'womens-shorts', label: 'Shorts', gender: 'womens' },
  { value: 'womens-pants', label: 'Pants', gender: 'womens' },
  { value: 'womens-jackets', label: 'Jackets', gender: 'womens' },
  { value: 'womens-hoodies', label: 'Hoodies', gender: 'womens' },
  { value: 'womens-accessories', label: 'Accessories', gender: 'womens' },
  { value: 'womens-dresses', label: 'Dresses', gender: 'womens' },
  { value: 'womens-skirts', label: 'Skirts', gender: 'womens' },
  { value: 'mens-tops', label: 'Tops', gender: 'mens' },
  { value: 'mens-tanks', label: 'Tanks', gender: 'mens' },
  { value: 'mens-bottoms', label: 'Bottoms', gender: 'mens' },
  { value: 'mens-shorts', label: 'Shorts', gender: 'mens' },
  { value: 'mens-pants', label: 'Pants', gender: 'mens' },
  { value: 'mens-jackets', label: 'Jackets', gender: 'mens' },
  { value: 'mens-hoodies', label: 'Hoodies', gender: 'mens' },
  { value: 'mens-accessories', label: 'Accessories', gender: 'mens' },
] as const satisfies ReadonlyArray<{ value: `${Gender}-${string}`; label: string; gender: Gender }>;

export type CategoryOption = (typeof CATEGORIES)[number];
export type Category = CategoryOption['value'];

export const CATEGORY_VALUES = CATEGORIES.map((c) => c.value) as [Category, ...Category[]];

/** The category a product form falls back to when its gender changes (admin spec §4). */
export const DEFAULT_CATEGORY: Record<Gender, Category> = { womens: 'womens-leggings', mens: 'mens-tops' };

export function isCategory(value: string): value is Category {
  return (CATEGORY_VALUES as readonly string[]).includes(value);
}

export function categoriesForGender(gender: Gender): CategoryOption[] {
  return CATEGORIES.filter((c) => c.gender === gender);
}

export function isCategoryOfGender(category: string, gender: Gender): boolean {
  return CATEGORIES.some((c) => c.value === category && c.gender === gender);
}

/**
 * The category as the product details list and the admin category dropdown show it: dashes turned
 * into spaces, words capitalised ('womens-leggings' -> 'Womens Leggings'). Works on any string, so
 * values found in the data that this build does not know still display sensibly.
 */
export function categoryLabel(value: string): string {
  return value
    .split('-')
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

// Sizes --------------------------------------------------------------------------------------------

export const SIZES = ['XS', 'S', 'M', 'L', 'XL'] as const;
export type Size = (typeof SIZES)[number];

/** Sizes in the canonical order XS, S, M, L, XL (the order the edit form keeps). */
export function sortSizes<T extends Size>(sizes: readonly T[]): T[] {
  return [...sizes].sort((a, b) => SIZES.indexOf(a) - SIZES.indexOf(b));
}

// Limits (spec §9 of both documents) -----------------------------------------------------------------

export const MAX_PRODUCT_IMAGES = 4;
export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const BRAND_MAX_LENGTH = 100;
export const MAX_PRODUCT_COLORS = 20;
export const COLOR_MAX_LENGTH = 50;
export const SIZE_GUIDE_VALUE_MAX_LENGTH = 20;
export const MIN_SHIPPING_WEIGHT_LBS = 0.1;
/** USPS, the spec's carrier, takes parcels up to 70 lbs. */
export const MAX_SHIPPING_WEIGHT_LBS = 70;
/** 1,000,000.00 USD: far above any real price, well inside the integer column. */
export const MAX_PRICE_CENTS = 100_000_000;
export const MAX_QUANTITY = 1_000_000;
/** 'Only N left in stock!' shows at quantity 1 to LOW_STOCK_MAX; 'Sold Out' at 0. */
export const LOW_STOCK_MAX = 5;

export function isSoldOut(quantity: number): boolean {
  return quantity <= 0;
}

export function isLowStock(quantity: number): boolean {
  return quantity >= 1 && quantity <= LOW_STOCK_MAX;
}

// Messages the admin spec quotes verbatim ------------------------------------------------------------

export const PRODUCT_MESSAGES = {
  required: 'Please fill in all required fields',
  sizes: 'Please select at least one size',
  colors: 'Please add at least one color',
  maxImages: `Maximum of ${MAX_PRODUCT_IMAGES} images allowed`,
  /** A price typed with more than 2 decimals, an exponent or anything but digits. */
  dollars: 'Enter an amount in dollars and cents, like 24.99',
} as const;

// Size guide ---------------------------------------------------------------------------------------

export const SIZE_GUIDE_MEASURES = ['waist', 'hip', 'bust'] as const;
export type SizeGuideMeasure = (typeof SIZE_GUIDE_MEASURES)[number];

/**
 * Units a shopper can buy in `size`: the size's own units when the product tracks its sizes
 * apart, else the product's one quantity.
 */
export function availableInSize(
  product: { quantity: number; sizeStock: Partial<Record<Size, number>> | null },
  size: string,
): number {
  if (!product.sizeStock) return product.quantity;
  return product.sizeStock[size as Size] ?? 0;
}
