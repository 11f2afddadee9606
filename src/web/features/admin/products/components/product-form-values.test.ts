import { describe, expect, it } from 'vitest';
import { PRODUCT_MESSAGES } from '#common/schemas/product';
import { productFormDefaults, resolveProductForm, type ProductFormValues } from './product-form-values';

const filled = (overrides: Partial<ProductFormValues> = {}): ProductFormValues => ({
  ...productFormDefaults(undefined),
  images: [{ path: 'products/a-800.webp', url: '/uploads/products/a-800.webp' }],
  title: 'Align Legging',
  brand: 'Lululemon',
  price: '48.50',
  quantity: '3',
  shippingWeight: '0.5',
  sizes: ['S', 'M'],
  colors: ['Black'],
  ...overrides,
});

async function resolve(values: ProductFormValues) {
  return resolveProductForm(values, undefined, { fields: {}, shouldUseNativeValidation: undefined });
}

describe('the product form resolver', () => {
  it('turns typed dollars into cents with the strict parser and checks the shared schema', async () => {
    const result = await resolve(
      filled({ originalPrice: '98', sizeGuide: { waist: { S: '26' }, hip: {}, bust: {} } }),
    );
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({
      priceCents: 4850,
      originalPriceCents: 9800,
      quantity: 3,
      shippingWeight: 0.5,
      sizeGuide: { waist: ['26', ''] },
    });
  });

  it('refuses a price it would have to round or read as an exponent', async () => {
    for (const price of ['1.005', '1e3', '-1', '12,50']) {
      const result = await resolve(filled({ price }));
      expect(result.errors.root?.message).toBe(PRODUCT_MESSAGES.dollars);
      expect(result.errors.price?.message).toBe(PRODUCT_MESSAGES.dollars);
    }
    const original = await resolve(filled({ originalPrice: '2.999' }));
    expect(original.errors.originalPrice?.message).toBe(PRODUCT_MESSAGES.dollars);
  });

  it('names every missing required field at once, then sizes, then colours', async () => {
    const empty = await resolve(productFormDefaults(undefined));
    expect(empty.errors.root?.message).toBe(PRODUCT_MESSAGES.required);
    expect(Object.keys(empty.errors).sort()).toEqual(
      ['brand', 'images', 'price', 'quantity', 'root', 'shippingWeight', 'title'].sort(),
    );
    expect((await resolve(filled({ sizes: [] }))).errors.root?.message).toBe(PRODUCT_MESSAGES.sizes);
    expect((await resolve(filled({ colors: [] }))).errors.root?.message).toBe(PRODUCT_MESSAGES.colors);
    expect((await resolve(filled({ quantity: '1.5' }))).errors.quantity).toBeDefined();
  });

  it('with Stock per size, sends a quantity per offered size and their sum as the Quantity', async () => {
    const on = await resolve(
      filled({ stockPerSize: true, quantity: '99', sizeStock: { S: '1', M: '4', L: '7' } }),
    );
    expect(on.errors).toEqual({});
    expect(on.values).toMatchObject({ quantity: 5, sizeStock: { S: 1, M: 4 } });
    const blank = await resolve(filled({ stockPerSize: true, sizeStock: { S: '2' } }));
    expect(blank.errors.root?.message).toBe('Enter a quantity for size M');
    expect(blank.errors.sizeStock?.message).toBe('Enter a quantity for size M');
    const half = await resolve(filled({ stockPerSize: true, sizeStock: { S: '1.5', M: '1' } }));
    expect(half.errors.sizeStock).toBeDefined();
    // Off: the typed Quantity, no sizes.
    const off = await resolve(filled({ stockPerSize: false, sizeStock: { S: '1', M: '4' } }));
    expect(off.values).toMatchObject({ quantity: 3, sizeStock: null });
  });
});
