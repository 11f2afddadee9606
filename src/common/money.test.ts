import { describe, expect, it } from 'vitest';
import {
  cartTotals,
  centsToDecimal,
  formatUsd,
  parseDollarsToCents,
  shippingCentsFor,
  tokenDiscountCents,
} from './money';

describe('money', () => {
  it('ships free from 50 USD and for 4.99 below', () => {
    expect(shippingCentsFor(4_999)).toBe(499);
    expect(shippingCentsFor(5_000)).toBe(0);
    expect(shippingCentsFor(0)).toBe(0);
  });

  it('totals lines with shipping', () => {
    expect(cartTotals([{ priceCents: 2_000, quantity: 2 }])).toEqual({
      subtotalCents: 4_000,
      shippingCents: 499,
      totalCents: 4_499,
    });
    expect(cartTotals([{ priceCents: 2_500, quantity: 2 }])).toEqual({
      subtotalCents: 5_000,
      shippingCents: 0,
      totalCents: 5_000,
    });
  });

  it('takes 10% off for the token, to the cent', () => {
    expect(tokenDiscountCents(4_499)).toBe(450);
    expect(tokenDiscountCents(10_000)).toBe(1_000);
  });

  it('formats and parses dollars', () => {
    expect(formatUsd(123_450)).toBe('$1,234.50');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(6_800)).toBe('$68.00');
    expect(centsToDecimal(123_450)).toBe('1234.50');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(parseDollarsToCents(centsToDecimal(7_401))).toBe(7_401);
    expect(parseDollarsToCents('12.5')).toBe(1_250);
    expect(parseDollarsToCents('12.345')).toBeNull();
    expect(parseDollarsToCents('abc')).toBeNull();
  });
});
