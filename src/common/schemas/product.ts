import { z } from 'zod';

/**
 * The product contract shared by the browser and the server: genders, categories and sizes as the
 * spec lists them, the product DTO the API returns, and the admin create/edit input.
 * Money is integer cents everywhere; dollars appear only when formatted for display.
 */

export * from '../catalog';
import { PRODUCT_PAGE_SIZE_MAX, PRODUCT_SORTS } from '../catalog-query';
import {
  BRAND_MAX_LENGTH,
  CATEGORY_VALUES,
  COLOR_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  GENDERS,
  isCategoryOfGender,
  MAX_PRICE_CENTS,
  MAX_PRODUCT_COLORS,
  MAX_PRODUCT_IMAGES,
  MAX_QUANTITY,
  MAX_SHIPPING_WEIGHT_LBS,
  MIN_SHIPPING_WEIGHT_LBS,
  PRODUCT_MESSAGES,
  SIZE_GUIDE_MEASURES,
  SIZE_GUIDE_VALUE_MAX_LENGTH,
  SIZES,
  TITLE_MAX_LENGTH,
  type Category,
  type Gender,
  type Size,
} from '../catalog';

export const GenderSchema = z.enum(GENDERS);
export const CategorySchema = z.enum(CATEGORY_VALUES);
export const SizeSchema = z.enum(SIZES);

/** Inches per size, aligned with the product's sizes by index; e.g. waist ['24-26', '26-28']. */
export const SizeGuideSchema = z.object({
  waist: z.array(z.string()).optional(),
  hip: z.array(z.string()).optional(),
  bust: z.array(z.string()).optional(),
});
export type SizeGuide = z.infer<typeof SizeGuideSchema>;

/** Units per size, e.g. { XS: 1, S: 3 }: only offered sizes, each a whole number >= 0. */
export const SizeStockSchema = z.partialRecord(
  SizeSchema,
  z.int('Quantity must be a whole number').min(0, 'Quantity cannot be negative').max(MAX_QUANTITY),
);
export type SizeStock = z.infer<typeof SizeStockSchema>;

// Product DTO ----------------------------------------------------------------------------------------

/** One product image: `path` is its storage key, `url` its public address, `srcset` the variants. */
export const ProductImageSchema = z.object({
  path: z.string(),
  url: z.string(),
  srcset: z.string().optional(),
});
export type ProductImage = z.infer<typeof ProductImageSchema>;

export const ProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  brand: z.string(),
  priceCents: z.int().min(0),
  /** The struck-through "was" price, when there is one. */
  originalPriceCents: z.int().min(0).nullable(),
  images: z.array(ProductImageSchema).min(1).max(MAX_PRODUCT_IMAGES),
  /** Units a shopper can still buy (storefront); units on hand, held ones included (admin). */
  quantity: z.int().min(0),
  /** Admin only: units held by open checkouts (part of `quantity`, not for sale until released). */
  reservedQuantity: z.int().min(0).optional(),
  sizes: z.array(SizeSchema),
  /**
   * Stock per size, when the product's sizes are tracked apart (null: one quantity for all sizes).
   * Units per offered size, counted as `quantity` is: buyable (storefront), on hand (admin).
   */
  sizeStock: SizeStockSchema.nullable(),
  /** Admin only, with stock per size: units held by open checkouts per size (part of `sizeStock`). */
  reservedBySize: SizeStockSchema.optional(),
  colors: z.array(z.string()),
  sizeGuide: SizeGuideSchema.nullable(),
  category: CategorySchema,
  gender: GenderSchema,
  /** Pounds. */
  shippingWeight: z.number(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Product = z.infer<typeof ProductSchema>;

// Admin create / edit input --------------------------------------------------------------------------

/**
 * A storage key returned by the image upload, e.g. `products/1732240000000-k3j2h1-800.webp`:
 * relative, slash-separated segments of letters, digits, dot, dash and underscore; no `..`.
 */
export const ImagePathSchema = z
  .string()
  .trim()
  .min(1, PRODUCT_MESSAGES.required)
  .max(300)
  .regex(/^(?!.*\.\.)[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/, 'Invalid image path');

export const PRODUCT_QUANTITY_WHOLE = 'Quantity must be a whole number';

const sizeGuideValues = z.array(z.string().trim().max(SIZE_GUIDE_VALUE_MAX_LENGTH)).optional();

const ProductInputObject = z.object({
  title: z.string(PRODUCT_MESSAGES.required).trim().min(1, PRODUCT_MESSAGES.required).max(TITLE_MAX_LENGTH),
  description: z.string().trim().max(DESCRIPTION_MAX_LENGTH).optional().default(''),
  brand: z.string(PRODUCT_MESSAGES.required).trim().min(1, PRODUCT_MESSAGES.required).max(BRAND_MAX_LENGTH),
  priceCents: z.int(PRODUCT_MESSAGES.required).min(0, 'Price cannot be negative').max(MAX_PRICE_CENTS),
  originalPriceCents: z
    .int()
    .min(0)
    .max(MAX_PRICE_CENTS)
    .nullish()
    .transform((v) => v ?? null),
  images: z
    .array(ImagePathSchema, PRODUCT_MESSAGES.required)
    .min(1, PRODUCT_MESSAGES.required)
    .max(MAX_PRODUCT_IMAGES, PRODUCT_MESSAGES.maxImages),
  quantity: z
    .int({
      // A number that is not whole was filled in: say so, not that a field is missing.
      error: (issue) =>
        typeof issue.input === 'number' && Number.isFinite(issue.input)
          ? PRODUCT_QUANTITY_WHOLE
          : PRODUCT_MESSAGES.required,
    })
    .min(0, 'Quantity cannot be negative')
    .max(MAX_QUANTITY),
  sizes: z
    .array(SizeSchema, PRODUCT_MESSAGES.sizes)
    .min(1, PRODUCT_MESSAGES.sizes)
    .refine((sizes) => new Set(sizes).size === sizes.length, 'Each size can be chosen once'),
  colors: z
    .array(z.string().trim().max(COLOR_MAX_LENGTH), PRODUCT_MESSAGES.colors)
    .transform((colors) => [...new Set(colors.filter((c) => c !== ''))])
    .pipe(
      z
        .array(z.string())
        .min(1, PRODUCT_MESSAGES.colors)
        .max(MAX_PRODUCT_COLORS, `At most ${MAX_PRODUCT_COLORS} colors`),
    ),
  sizeGuide: z
    .object({ waist: sizeGuideValues, hip: sizeGuideValues, bust: sizeGuideValues })
    .nullish()
    .transform((v) => v ?? null),
  /** "Stock per size": a quantity per offered size, summing to `quantity`; null (or absent) when off. */
  sizeStock: SizeStockSchema.nullish().transform((v) => v ?? null),
  gender: GenderSchema,
  category: CategorySchema,
  shippingWeight: z
    .number(PRODUCT_MESSAGES.required)
    .min(MIN_SHIPPING_WEIGHT_LBS, `Shipping weight must be at least ${MIN_SHIPPING_WEIGHT_LBS} lbs`)
    .max(MAX_SHIPPING_WEIGHT_LBS, `Shipping weight must be at most ${MAX_SHIPPING_WEIGHT_LBS} lbs`)
    // The column keeps two decimals.
    .transform((v) => Math.round(v * 100) / 100),
});

/**
 * What the admin add and edit forms send. Normalises as it validates: text trimmed, blank and
 * repeated colours dropped, sizes put in XS..XL order (size-guide columns follow their size),
 * an empty size guide becomes null.
 */
export const ProductInputSchema = ProductInputObject.superRefine((input, ctx) => {
  if (!isCategoryOfGender(input.category, input.gender)) {
    ctx.addIssue({
      code: 'custom',
      path: ['category'],
      message: "Category does not match the product's gender",
    });
  }
  if (input.originalPriceCents !== null && input.originalPriceCents <= input.priceCents) {
    ctx.addIssue({
      code: 'custom',
      path: ['originalPriceCents'],
      message: 'Original price must be higher than the price',
    });
  }
  if (input.sizeStock) {
    for (const issue of sizeStockIssues(input.sizeStock, input.sizes, input.quantity)) ctx.addIssue(issue);
  }
  for (const measure of SIZE_GUIDE_MEASURES) {
    const values = input.sizeGuide?.[measure];
    if (values && values.length !== input.sizes.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['sizeGuide', measure],
        message: `The size guide needs one ${measure} value per size`,
      });
    }
  }
}).transform((input) => {
  const order = input.sizes
    .map((size, index) => ({ size, index }))
    .sort((a, b) => SIZES.indexOf(a.size) - SIZES.indexOf(b.size));
  const sizeGuide: SizeGuide = {};
  for (const measure of SIZE_GUIDE_MEASURES) {
    const values = input.sizeGuide?.[measure];
    if (!values || values.every((v) => v === '')) continue;
    sizeGuide[measure] = order.map(({ index }) => values[index] ?? '');
  }
  const sizes = order.map(({ size }) => size);
  const stock = input.sizeStock;
  return {
    ...input,
    sizes,
    sizeGuide: Object.keys(sizeGuide).length > 0 ? sizeGuide : null,
    // In XS..XL order, like the sizes.
    sizeStock: stock ? Object.fromEntries(sizes.map((size) => [size, stock[size] ?? 0])) : null,
  };
});

/**
 * What is wrong with a product's stock per size: a quantity for a size it is not offered in, an
 * offered size without one, or quantities that do not add up to the product's Quantity.
 */
export function sizeStockIssues(
  stock: SizeStock,
  sizes: readonly Size[],
  quantity: number,
): Array<{ code: 'custom'; path: string[]; message: string }> {
  const issues: Array<{ code: 'custom'; path: string[]; message: string }> = [];
  for (const size of SIZES) {
    const units = stock[size];
    if (units !== undefined && !sizes.includes(size)) {
      issues.push({ code: 'custom', path: ['sizeStock', size], message: `Size ${size} is not offered` });
    }
    if (units === undefined && sizes.includes(size)) {
      issues.push({
        code: 'custom',
        path: ['sizeStock', size],
        message: `Enter a quantity for size ${size}`,
      });
    }
  }
  const sum = sizeStockTotal(stock);
  if (issues.length === 0 && sum !== quantity) {
    issues.push({
      code: 'custom',
      path: ['quantity'],
      message: `Quantity must be the sum of the sizes' quantities (${sum})`,
    });
  }
  return issues;
}

export function sizeStockTotal(stock: SizeStock): number {
  return Object.values(stock).reduce((sum, units) => sum + (units ?? 0), 0);
}

/** The validated, normalised input (what services and the repository receive). */
export type ProductInput = z.output<typeof ProductInputSchema>;
/** What a form may send before normalisation. */
export type ProductInputDraft = z.input<typeof ProductInputSchema>;

/**
 * GET /api/products: the grid's filters and order (common/catalog-query.ts). 'all' or empty means
 * no filter; an unknown value is a 400 naming it (the browser only sends what it offers).
 */
const allOr = <T extends z.ZodType>(schema: T) =>
  z
    .union([schema, z.literal('all'), z.literal('')])
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : (v as z.infer<T> | undefined)));

export const ProductListQuerySchema = z
  .object({
    gender: allOr(GenderSchema),
    category: allOr(CategorySchema),
    size: allOr(SizeSchema),
    sort: z.enum(PRODUCT_SORTS).optional(),
    /** Where the next page starts: the `nextCursor` of the page before, as the server gave it. */
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,400}$/, 'Invalid cursor')
      .optional(),
    limit: z.coerce.number().int().min(1).max(PRODUCT_PAGE_SIZE_MAX).optional(),
  })
  .refine((q) => !q.gender || !q.category || isCategoryOfGender(q.category, q.gender), {
    path: ['category'],
    message: 'Category does not belong to that gender',
  });

/** One page of GET /api/products: the products, how many match in all, and where the next page starts. */
export interface ProductPage {
  products: Product[];
  /** Every product the filters match, over all pages. */
  total: number;
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** On the first page: how many products each filter choice would show (the others applied). */
  facets?: ProductFacets;
}

/** The filters' counts: each facet under the other filters, its own left out. */
export interface ProductFacets {
  genders: Record<Gender, number>;
  categories: Record<Category, number>;
  sizes: Record<Size, number>;
}
