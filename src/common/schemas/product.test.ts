import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  CATEGORY_VALUES,
  DEFAULT_CATEGORY,
  GENDER_LABELS,
  MAX_PRODUCT_IMAGES,
  PRODUCT_MESSAGES,
  ProductInputSchema,
  ProductSchema,
  SIZES,
  categoriesForGender,
  categoryLabel,
  isCategoryOfGender,
  isLowStock,
  isSoldOut,
  sortSizes,
  type ProductInputDraft,
} from './product';

const validInput = (overrides: Partial<ProductInputDraft> = {}): ProductInputDraft => ({
  title: 'Sculpt High-Rise Legging 25"',
  description: 'Like New. Authenticated.',
  brand: 'Northline',
  priceCents: 6800,
  originalPriceCents: 11800,
  images: ['products/1732240000000-k3j2h1-800.webp'],
  quantity: 3,
  sizes: ['S', 'M'],
  colors: ['Black'],
  sizeGuide: { waist: ['26-28', '28-30'], hip: ['35-37', '37-39'] },
  gender: 'womens',
  category: 'womens-leggings',
  shippingWeight: 0.4,
  ...overrides,
});

/** field path -> first message, as the API's error body reports them. */
function fieldErrors(input: unknown): Record<string, string> {
  const result = ProductInputSchema.safeParse(input);
  if (result.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

describe('categories', () => {
  it('lists the spec categories: 10 for women, 8 for men, each prefixed by its gender', () => {
    expect(categoriesForGender('womens').map((c) => c.value)).toEqual([
      'womens-leggings',
      'womens-bras',
      'womens-tanks',
      'womens-shorts',
      'womens-pants',
      'womens-jackets',
      'womens-hoodies',
      'womens-accessories',
      'womens-dresses',
      'womens-skirts',
    ]);
    expect(categoriesForGender('mens').map((c) => c.value)).toEqual([
      'mens-tops',
      'mens-tanks',
      'mens-bottoms',
      'mens-shorts',
      'mens-pants',
      'mens-jackets',
      'mens-hoodies',
      'mens-accessories',
    ]);
    expect(CATEGORY_VALUES).toHaveLength(18);
    for (const c of CATEGORIES) expect(c.value.startsWith(`${c.gender}-`)).toBe(true);
  });

  it('carries the spec labels', () => {
    expect(CATEGORIES.find((c) => c.value === 'womens-bras')?.label).toBe('Sports Bras');
    expect(CATEGORIES.find((c) => c.value === 'mens-bottoms')?.label).toBe('Bottoms');
    expect(GENDER_LABELS).toEqual({ womens: "Women's", mens: "Men's" });
  });

  it('formats a category for the details list: dashes to spaces, words capitalised', () => {
    expect(categoryLabel('womens-leggings')).toBe('Womens Leggings');
    expect(categoryLabel('mens-tops')).toBe('Mens Tops');
    expect(categoryLabel('womens-sports-bras')).toBe('Womens Sports Bras');
    expect(categoryLabel('')).toBe('');
  });

  it('knows which gender a category belongs to and the default per gender', () => {
    expect(isCategoryOfGender('womens-dresses', 'womens')).toBe(true);
    expect(isCategoryOfGender('womens-dresses', 'mens')).toBe(false);
    expect(isCategoryOfGender('mens-dresses', 'mens')).toBe(false);
    expect(DEFAULT_CATEGORY).toEqual({ womens: 'womens-leggings', mens: 'mens-tops' });
  });
});

describe('sizes and stock', () => {
  it('orders sizes XS..XL', () => {
    expect(SIZES).toEqual(['XS', 'S', 'M', 'L', 'XL']);
    expect(sortSizes(['XL', 'S', 'XS', 'M'])).toEqual(['XS', 'S', 'M', 'XL']);
  });

  it('calls 0 sold out and 1 to 5 low stock', () => {
    expect(isSoldOut(0)).toBe(true);
    expect(isSoldOut(1)).toBe(false);
    expect([0, 1, 5, 6].map(isLowStock)).toEqual([false, true, true, false]);
  });
});

describe('ProductInputSchema', () => {
  it('accepts a complete product and keeps money in cents', () => {
    const parsed = ProductInputSchema.parse(validInput());
    expect(parsed).toMatchObject({ priceCents: 6800, originalPriceCents: 11800, shippingWeight: 0.4 });
  });

  it('trims text, defaults the description and the original price', () => {
    const parsed = ProductInputSchema.parse(
      validInput({
        title: '  Run Short  ',
        brand: ' Fieldhouse ',
        description: undefined,
        originalPriceCents: undefined,
      }),
    );
    expect(parsed.title).toBe('Run Short');
    expect(parsed.brand).toBe('Fieldhouse');
    expect(parsed.description).toBe('');
    expect(parsed.originalPriceCents).toBeNull();
  });

  it('requires title, brand, price and at least one image with the spec message', () => {
    expect(fieldErrors(validInput({ title: '   ' }))).toEqual({ title: PRODUCT_MESSAGES.required });
    expect(fieldErrors(validInput({ brand: '' }))).toEqual({ brand: PRODUCT_MESSAGES.required });
    expect(fieldErrors(validInput({ images: [] }))).toEqual({ images: PRODUCT_MESSAGES.required });
    const { priceCents: _omitted, ...noPrice } = validInput();
    expect(fieldErrors(noPrice)).toEqual({ priceCents: PRODUCT_MESSAGES.required });
  });

  it('limits lengths', () => {
    expect(fieldErrors(validInput({ title: 'x'.repeat(201) }))).toHaveProperty('title');
    expect(fieldErrors(validInput({ title: 'x'.repeat(200) }))).toEqual({});
    expect(fieldErrors(validInput({ description: 'x'.repeat(5001) }))).toHaveProperty('description');
  });

  it('takes integer cents >= 0 only', () => {
    expect(fieldErrors(validInput({ priceCents: 12.5 }))).toHaveProperty('priceCents');
    expect(fieldErrors(validInput({ priceCents: -1 }))).toHaveProperty('priceCents');
    expect(fieldErrors(validInput({ priceCents: 0, originalPriceCents: null }))).toEqual({});
  });

  it('wants an original price above the price', () => {
    expect(fieldErrors(validInput({ originalPriceCents: 6800 }))).toHaveProperty('originalPriceCents');
    expect(fieldErrors(validInput({ originalPriceCents: 5000 }))).toHaveProperty('originalPriceCents');
  });

  it('allows 1 to 4 images with the spec message beyond 4', () => {
    const images = (n: number) => Array.from({ length: n }, (_, i) => `products/img-${i}-800.webp`);
    expect(MAX_PRODUCT_IMAGES).toBe(4);
    expect(fieldErrors(validInput({ images: images(4) }))).toEqual({});
    expect(fieldErrors(validInput({ images: images(5) }))).toEqual({ images: PRODUCT_MESSAGES.maxImages });
  });

  it('takes image storage keys only, never paths that climb or absolute URLs', () => {
    for (const bad of [
      '../secrets.json',
      '/etc/passwd',
      'products/../../x',
      'https://evil.example/x.png',
      'a b.webp',
    ]) {
      expect(fieldErrors(validInput({ images: [bad] })), bad).toHaveProperty('images.0');
    }
  });

  it('takes a non-empty quantity integer >= 0', () => {
    expect(fieldErrors(validInput({ quantity: 0 }))).toEqual({});
    expect(fieldErrors(validInput({ quantity: -1 }))).toHaveProperty('quantity');
    expect(fieldErrors(validInput({ quantity: 1.5 }))).toHaveProperty('quantity');
    expect(ProductInputSchema.safeParse(validInput({ quantity: 1.5 })).error?.issues[0]?.message).toBe(
      'Quantity must be a whole number',
    );
    expect(ProductInputSchema.safeParse(validInput({ quantity: undefined })).error?.issues[0]?.message).toBe(
      PRODUCT_MESSAGES.required,
    );
  });

  it('needs at least one size, each once, from XS..XL, and keeps them in that order', () => {
    expect(fieldErrors(validInput({ sizes: [], sizeGuide: null }))).toEqual({
      sizes: PRODUCT_MESSAGES.sizes,
    });
    expect(fieldErrors(validInput({ sizes: ['S', 'S'], sizeGuide: null }))).toHaveProperty('sizes');
    expect(fieldErrors(validInput({ sizes: ['XXL'] as never, sizeGuide: null }))).toHaveProperty('sizes.0');
    const parsed = ProductInputSchema.parse(
      validInput({ sizes: ['L', 'XS', 'M'], sizeGuide: { waist: ['30-32', '24-26', '28-30'] } }),
    );
    expect(parsed.sizes).toEqual(['XS', 'M', 'L']);
    // the size guide follows its sizes
    expect(parsed.sizeGuide).toEqual({ waist: ['24-26', '28-30', '30-32'] });
  });

  it('needs at least one colour: trimmed, blank ones and repeats dropped, at most 20', () => {
    expect(fieldErrors(validInput({ colors: [] }))).toEqual({ colors: PRODUCT_MESSAGES.colors });
    expect(fieldErrors(validInput({ colors: ['  ', ''] }))).toEqual({ colors: PRODUCT_MESSAGES.colors });
    expect(
      ProductInputSchema.parse(validInput({ colors: [' Black ', 'Sage', 'Black', ' '] })).colors,
    ).toEqual(['Black', 'Sage']);
    const many = Array.from({ length: 21 }, (_, i) => `Colour ${i}`);
    expect(fieldErrors(validInput({ colors: many }))).toHaveProperty('colors');
  });

  it('wants the category to belong to the gender', () => {
    expect(fieldErrors(validInput({ gender: 'mens', category: 'womens-leggings' }))).toHaveProperty(
      'category',
    );
    expect(fieldErrors(validInput({ category: 'womens-sandals' as never }))).toHaveProperty('category');
    expect(fieldErrors(validInput({ gender: 'mens', category: 'mens-bottoms' }))).toEqual({});
  });

  it('takes a shipping weight of at least 0.1 lbs, kept to two decimals', () => {
    expect(fieldErrors(validInput({ shippingWeight: 0.05 }))).toHaveProperty('shippingWeight');
    expect(fieldErrors(validInput({ shippingWeight: 0.1 }))).toEqual({});
    expect(ProductInputSchema.parse(validInput({ shippingWeight: 1.234 })).shippingWeight).toBe(1.23);
  });

  it('wants size-guide columns as long as the sizes, and drops an empty guide', () => {
    expect(fieldErrors(validInput({ sizeGuide: { waist: ['26-28'] } }))).toHaveProperty('sizeGuide.waist');
    expect(fieldErrors(validInput({ sizeGuide: { bust: ['32', '34', '36'] } }))).toHaveProperty(
      'sizeGuide.bust',
    );
    expect(ProductInputSchema.parse(validInput({ sizeGuide: {} })).sizeGuide).toBeNull();
    expect(ProductInputSchema.parse(validInput({ sizeGuide: { waist: ['', ''] } })).sizeGuide).toBeNull();
    expect(ProductInputSchema.parse(validInput({ sizeGuide: undefined })).sizeGuide).toBeNull();
  });
});

describe('ProductSchema (DTO)', () => {
  it('describes what the API returns', () => {
    const dto = {
      id: '6d1f4c1e-2a8e-4f43-9d36-3f1c5c3b9a10',
      title: 'Sculpt High-Rise Legging',
      description: '',
      brand: 'Northline',
      priceCents: 6800,
      originalPriceCents: null,
      images: [{ path: 'products/a-800.webp', url: '/uploads/products/a-800.webp' }],
      quantity: 0,
      sizes: ['S', 'M'],
      colors: ['Black'],
      sizeGuide: null,
      sizeStock: null,
      category: 'womens-leggings',
      gender: 'womens',
      shippingWeight: 0.4,
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:00.000Z',
    };
    expect(ProductSchema.parse(dto)).toEqual(dto);
    // Stock per size: units per offered size (decision 019).
    const perSize = { ...dto, quantity: 3, sizeStock: { S: 0, M: 3 } };
    expect(ProductSchema.parse(perSize)).toEqual(perSize);
    expect(ProductSchema.safeParse({ ...dto, sizeStock: { S: -1 } }).success).toBe(false);
    expect(ProductSchema.safeParse({ ...dto, priceCents: 68.0 + 0.5 }).success).toBe(false);
  });
});
