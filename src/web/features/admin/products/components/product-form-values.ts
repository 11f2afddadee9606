import type { FieldErrors, Resolver } from 'react-hook-form';
import { centsToDecimal, parseDollarsToCents } from '#common/money';
import {
  DEFAULT_CATEGORY,
  PRODUCT_MESSAGES,
  ProductInputSchema,
  SIZE_GUIDE_MEASURES,
  sortSizes,
  type Category,
  type Gender,
  type Product,
  type ProductImage,
  type ProductInput,
  type Size,
  type SizeGuideMeasure,
} from '#common/schemas/product';

/**
 * What the product form edits: the product input with its numbers as typed text, and the size
 * guide as a value per measure and size. `resolveProductForm` turns it into the shared
 * `ProductInputSchema`'s input, checking it with that schema, so the browser refuses what the
 * server would refuse, with the same messages.
 */
export interface ProductFormValues {
  images: ProductImage[];
  title: string;
  description: string;
  price: string;
  originalPrice: string;
  brand: string;
  gender: Gender;
  category: Category;
  sizes: Size[];
  colors: string[];
  quantity: string;
  /** "Stock per size": a quantity per offered size, their sum the Quantity. */
  stockPerSize: boolean;
  sizeStock: Partial<Record<Size, string>>;
  shippingWeight: string;
  sizeGuide: Record<SizeGuideMeasure, Partial<Record<Size, string>>>;
}

export type ProductFormField = keyof ProductFormValues;

/** Server field paths (the input schema's names) -> the form's fields. */
export const SERVER_FIELDS: Record<string, ProductFormField> = {
  images: 'images',
  title: 'title',
  description: 'description',
  priceCents: 'price',
  originalPriceCents: 'originalPrice',
  brand: 'brand',
  gender: 'gender',
  category: 'category',
  sizes: 'sizes',
  colors: 'colors',
  quantity: 'quantity',
  sizeStock: 'sizeStock',
  shippingWeight: 'shippingWeight',
  sizeGuide: 'sizeGuide',
};

export const MEASURE_LABELS: Record<SizeGuideMeasure, string> = { waist: 'Waist', hip: 'Hip', bust: 'Bust' };

export function productFormDefaults(product: Product | undefined): ProductFormValues {
  const sizeGuide: ProductFormValues['sizeGuide'] = { waist: {}, hip: {}, bust: {} };
  if (!product) {
    return {
      images: [],
      title: '',
      description: '',
      price: '',
      originalPrice: '',
      brand: '',
      gender: 'womens',
      category: DEFAULT_CATEGORY.womens,
      sizes: [],
      colors: [],
      quantity: '',
      stockPerSize: false,
      sizeStock: {},
      shippingWeight: '',
      sizeGuide,
    };
  }
  for (const measure of SIZE_GUIDE_MEASURES) {
    product.sizeGuide?.[measure]?.forEach((value, index) => {
      const size = product.sizes[index];
      if (size) sizeGuide[measure][size] = value;
    });
  }
  return {
    images: product.images,
    title: product.title,
    description: product.description,
    price: centsToDecimal(product.priceCents),
    originalPrice: product.originalPriceCents === null ? '' : centsToDecimal(product.originalPriceCents),
    brand: product.brand,
    gender: product.gender,
    category: product.category,
    sizes: sortSizes(product.sizes),
    colors: product.colors,
    quantity: String(product.quantity),
    stockPerSize: product.sizeStock !== null,
    sizeStock: Object.fromEntries(
      Object.entries(product.sizeStock ?? {}).map(([size, units]) => [size, String(units)]),
    ),
    shippingWeight: String(product.shippingWeight),
    sizeGuide,
  };
}

const isBlank = (text: string) => text.trim() === '';
/** A typed number, or NaN: "" and "  " are not 0. */
const numberOf = (text: string) => (isBlank(text) ? Number.NaN : Number(text));

type Result =
  | { values: ProductInput; errors: Record<string, never> }
  | { values: Record<string, never>; errors: FieldErrors<ProductFormValues> };

function refuse(message: string, fields: Partial<Record<ProductFormField, string>>): Result {
  const errors: Record<string, { type: string; message: string }> = { root: { type: 'banner', message } };
  for (const [field, text] of Object.entries(fields)) errors[field] = { type: 'invalid', message: text };
  return { values: {}, errors: errors as FieldErrors<ProductFormValues> };
}

/**
 * react-hook-form's resolver: the spec's checks in its order (every missing required field at
 * once, then sizes, then colours), then the dollar amounts parsed strictly to cents ("1.005" and
 * "1e3" are refused, never rounded), then the shared schema. The banner message is the root error.
 */
export const resolveProductForm: Resolver<ProductFormValues, unknown, ProductInput> = (form) => {
  // With stock per size on, the Quantity is the sizes' sum (a blank size is left for later).
  const perSize = form.stockPerSize ? sizeStockFromForm(form) : null;
  const v = perSize ? { ...form, quantity: String(perSize.total) } : form;
  const missing = (
    [
      ['images', v.images.length === 0],
      ['title', isBlank(v.title)],
      ['price', isBlank(v.price)],
      ['brand', isBlank(v.brand)],
      ['quantity', !Number.isFinite(numberOf(v.quantity))],
      ['shippingWeight', !Number.isFinite(numberOf(v.shippingWeight))],
    ] as const
  ).filter(([, isMissing]) => isMissing);
  if (missing.length > 0)
    return refuse(PRODUCT_MESSAGES.required, Object.fromEntries(missing.map(([f]) => [f, 'Required'])));
  if (v.sizes.length === 0) return refuse(PRODUCT_MESSAGES.sizes, { sizes: PRODUCT_MESSAGES.sizes });
  if (v.colors.length === 0) return refuse(PRODUCT_MESSAGES.colors, { colors: PRODUCT_MESSAGES.colors });
  if (perSize?.blank) {
    const message = `Enter a quantity for size ${perSize.blank}`;
    return refuse(message, { sizeStock: message });
  }

  const priceCents = parseDollarsToCents(v.price);
  if (priceCents === null) return refuse(PRODUCT_MESSAGES.dollars, { price: PRODUCT_MESSAGES.dollars });
  const originalPriceCents = isBlank(v.originalPrice) ? null : parseDollarsToCents(v.originalPrice);
  if (originalPriceCents === null && !isBlank(v.originalPrice))
    return refuse(PRODUCT_MESSAGES.dollars, { originalPrice: PRODUCT_MESSAGES.dollars });

  const sizeGuide: Partial<Record<SizeGuideMeasure, string[]>> = {};
  for (const measure of SIZE_GUIDE_MEASURES) {
    const values = v.sizes.map((size) => (v.sizeGuide[measure][size] ?? '').trim());
    if (values.some((value) => value !== '')) sizeGuide[measure] = values;
  }
  const parsed = ProductInputSchema.safeParse({
    title: v.title,
    description: v.description,
    brand: v.brand,
    priceCents,
    originalPriceCents,
    images: v.images.map((image) => image.path),
    quantity: numberOf(v.quantity),
    sizeStock: perSize?.stock ?? null,
    sizes: v.sizes,
    colors: v.colors,
    sizeGuide: Object.keys(sizeGuide).length > 0 ? sizeGuide : null,
    gender: v.gender,
    category: v.category,
    shippingWeight: numberOf(v.shippingWeight),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue?.message ?? PRODUCT_MESSAGES.required;
    const named = SERVER_FIELDS[String(issue?.path[0] ?? '')];
    // With stock per size the Quantity is the sizes' sum: what is wrong with it is in the sizes.
    const field = perSize && named === 'quantity' ? 'sizeStock' : named;
    return refuse(message, field ? { [field]: message } : {});
  }
  return { values: parsed.data, errors: {} };
};

/** The per-size quantities as numbers, their sum, and the first offered size left blank. */
export function sizeStockFromForm(v: Pick<ProductFormValues, 'sizes' | 'sizeStock'>): {
  stock: Partial<Record<Size, number>>;
  total: number;
  blank: Size | undefined;
} {
  const stock: Partial<Record<Size, number>> = {};
  let total = 0;
  let blank: Size | undefined;
  for (const size of v.sizes) {
    const units = numberOf(v.sizeStock[size] ?? '');
    if (Number.isNaN(units)) blank ??= size;
    else {
      stock[size] = units;
      total += units;
    }
  }
  return { stock, total, blank };
}
