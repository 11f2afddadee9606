import { describe, expect, it } from 'vitest';
import { AppError } from '#server/lib/app-error';
import { computeAmounts, priceCheckout, type ProductForPricing } from './pricing';

const product = (overrides: Partial<ProductForPricing> = {}): ProductForPricing => ({
  id: 'p1',
  title: 'Align Legging',
  priceCents: 2_000,
  images: ['products/a-800.webp', 'products/b-800.webp'],
  sizes: ['S', 'M'],
  colors: ['Black', 'Navy'],
  quantity: 3,
  category: 'womens-leggings',
  ...overrides,
});

const catalog = (...products: ProductForPricing[]) => new Map(products.map((p) => [p.id, p]));

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('computeAmounts', () => {
  it('charges 4.99 shipping below 50 USD and nothing from 50 USD', () => {
    expect(computeAmounts(4_999, 'card')).toEqual({
      subtotalCents: 4_999,
      shippingCents: 499,
      discountCents: 0,
      totalCents: 5_498,
    });
    expect(computeAmounts(5_000, 'card')).toEqual({
      subtotalCents: 5_000,
      shippingCents: 0,
      discountCents: 0,
      totalCents: 5_000,
    });
  });

  it('takes 10% off the total for the token only', () => {
    expect(computeAmounts(5_000, 'aelo')).toEqual({
      subtotalCents: 5_000,
      shippingCents: 0,
      discountCents: 500,
      totalCents: 4_500,
    });
    // 10% of 29.99 + 4.99 = 3.498 -> 3.50 (half up), total 31.48
    expect(computeAmounts(2_999, 'aelo')).toEqual({
      subtotalCents: 2_999,
      shippingCents: 499,
      discountCents: 350,
      totalCents: 3_148,
    });
    expect(computeAmounts(2_999, 'sol').discountCents).toBe(0);
    expect(computeAmounts(2_999, 'card').discountCents).toBe(0);
  });
});

describe('priceCheckout', () => {
  it('prices from the product, merges duplicate lines and keeps the product spelling of colours', () => {
    const result = priceCheckout(
      catalog(product()),
      [
        { productId: 'p1', size: 'S', color: 'black', quantity: 1 },
        { productId: 'p1', size: 'S', color: 'Black', quantity: 1 },
      ],
      'card',
    );
    expect(result.lines).toEqual([
      {
        productId: 'p1',
        title: 'Align Legging',
        image: 'products/a-800.webp',
        category: 'womens-leggings',
        size: 'S',
        color: 'Black',
        quantity: 2,
        priceCents: 2_000,
        lineTotalCents: 4_000,
      },
    ]);
    expect(result.amounts).toEqual({
      subtotalCents: 4_000,
      shippingCents: 499,
      discountCents: 0,
      totalCents: 4_499,
    });
    expect(result.stock).toEqual([{ productId: 'p1', title: 'Align Legging', quantity: 2, size: 'S' }]);
  });

  it('adds the sizes of one product together against its stock', () => {
    const err = errorOf(() =>
      priceCheckout(
        catalog(product({ quantity: 2 })),
        [
          { productId: 'p1', size: 'S', color: 'Black', quantity: 2 },
          { productId: 'p1', size: 'M', color: 'Black', quantity: 1 },
        ],
        'card',
      ),
    );
    expect(err.code).toBe('OUT_OF_STOCK');
    expect(err.message).toBe('Only 2 left of Align Legging');
  });

  it('with stock per size, checks each size against its own units (colours of one size add up)', () => {
    const sized = catalog(product({ quantity: 4, sizeStock: { S: 1, M: 3 } }));
    const err = errorOf(() =>
      priceCheckout(
        sized,
        [
          { productId: 'p1', size: 'M', color: 'Black', quantity: 1 },
          { productId: 'p1', size: 'S', color: 'Black', quantity: 1 },
          { productId: 'p1', size: 'S', color: 'black', quantity: 1 },
        ],
        'card',
      ),
    );
    expect(err).toMatchObject({
      code: 'OUT_OF_STOCK',
      message: 'Only 1 left of Align Legging in S',
      fields: { 'items.1.quantity': 'Only 1 left of Align Legging in S' },
    });
    const ok = priceCheckout(
      sized,
      [
        { productId: 'p1', size: 'M', color: 'Black', quantity: 3 },
        { productId: 'p1', size: 'S', color: 'Black', quantity: 1 },
      ],
      'card',
    );
    expect(ok.stock.map((s) => [s.size, s.quantity])).toEqual([
      ['M', 3],
      ['S', 1],
    ]);
    const none = catalog(product({ quantity: 3, sizeStock: { S: 0, M: 3 } }));
    expect(
      errorOf(() =>
        priceCheckout(none, [{ productId: 'p1', size: 'S', color: 'Black', quantity: 1 }], 'card'),
      ).message,
    ).toBe('Align Legging in S is sold out');
  });

  it('refuses unknown products, sizes and colours not offered, and missing choices', () => {
    const p = catalog(product(), product({ id: 'cap', title: 'Cap', sizes: [], colors: [] }));
    expect(errorOf(() => priceCheckout(p, [{ productId: 'nope', quantity: 1 }], 'card'))).toMatchObject({
      code: 'NOT_FOUND',
      fields: { 'items.0.productId': 'A product in your cart is no longer available' },
    });
    expect(
      errorOf(() => priceCheckout(p, [{ productId: 'p1', size: 'XL', color: 'Black', quantity: 1 }], 'card')),
    ).toMatchObject({ code: 'CONFLICT', message: 'Size XL is not available for Align Legging' });
    expect(
      errorOf(() => priceCheckout(p, [{ productId: 'p1', color: 'Black', quantity: 1 }], 'card')),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Please choose a size for Align Legging',
    });
    expect(
      errorOf(() => priceCheckout(p, [{ productId: 'p1', size: 'S', color: 'Pink', quantity: 1 }], 'card')),
    ).toMatchObject({ code: 'CONFLICT', message: 'Color Pink is not available for Align Legging' });
    expect(
      errorOf(() => priceCheckout(p, [{ productId: 'p1', size: 'S', quantity: 1 }], 'card')),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Please choose a color for Align Legging',
    });
    expect(
      errorOf(() => priceCheckout(p, [{ productId: 'cap', size: 'M', quantity: 1 }], 'card')),
    ).toMatchObject({
      code: 'CONFLICT',
      message: 'Cap does not come in sizes',
    });
    expect(priceCheckout(p, [{ productId: 'cap', quantity: 1 }], 'card').lines[0]).toMatchObject({
      size: null,
      color: null,
    });
  });

  it('says sold out at zero and refuses merged lines above 5', () => {
    expect(
      errorOf(() =>
        priceCheckout(
          catalog(product({ quantity: 0 })),
          [{ productId: 'p1', size: 'S', color: 'Black', quantity: 1 }],
          'card',
        ),
      ),
    ).toMatchObject({ code: 'OUT_OF_STOCK', message: 'Align Legging is sold out' });
    expect(
      errorOf(() =>
        priceCheckout(
          catalog(product({ quantity: 10 })),
          [
            { productId: 'p1', size: 'S', color: 'Black', quantity: 3 },
            { productId: 'p1', size: 'S', color: 'Black', quantity: 3 },
          ],
          'card',
        ),
      ),
    ).toMatchObject({ code: 'VALIDATION_FAILED', message: 'At most 5 of Align Legging per order line' });
  });

  it('computes the token discount for aelo', () => {
    const result = priceCheckout(
      catalog(product({ priceCents: 6_000 })),
      [{ productId: 'p1', size: 'M', color: 'Navy', quantity: 1 }],
      'aelo',
    );
    expect(result.amounts).toEqual({
      subtotalCents: 6_000,
      shippingCents: 0,
      discountCents: 600,
      totalCents: 5_400,
    });
  });
});
