import { describe, expect, it } from 'vitest';
import {
  baseUnitsToDecimal,
  centsToBaseUnits,
  formatCryptoAmount,
  formatReceivedAmount,
  parseDecimal,
} from './crypto-amounts';
import { encodeTransferRequestUrl } from './solana-pay';

describe('crypto amounts in base units', () => {
  it('reads prices as exact fractions', () => {
    expect(parseDecimal('0.000420')).toEqual({ numerator: 420n, denominator: 1_000_000n });
    expect(parseDecimal('150')).toEqual({ numerator: 150n, denominator: 1n });
    expect(parseDecimal('0')).toBeNull();
    expect(parseDecimal('1e3')).toBeNull();
    expect(parseDecimal('-1')).toBeNull();
  });
  it('converts cents at a price to base units, rounding once in the stated direction', () => {
    expect(centsToBaseUnits(2_499, '150', 9, 'up')).toBe(166_600_000n);
    expect(centsToBaseUnits(5_400, '0.000420', 6, 'up')).toBe(128_571_428_572n);
    expect(centsToBaseUnits(5_400, '0.000420', 6, 'down')).toBe(128_571_428_571n);
    expect(centsToBaseUnits(1, '187.23', 9, 'up')).toBe(53_411n);
  });
  it('writes base units as decimals without float noise', () => {
    expect(baseUnitsToDecimal(716_844_320_000_000n, 9)).toBe('716844.32');
    expect(baseUnitsToDecimal(1n, 9)).toBe('0.000000001');
    expect(baseUnitsToDecimal('5000000', 6)).toBe('5');
  });
  it('shows 4 decimals, never less than what is due', () => {
    expect(formatCryptoAmount(166_600_000n, 9)).toBe('0.1666');
    expect(formatCryptoAmount(166_600_001n, 9)).toBe('0.1667');
    expect(formatCryptoAmount(128_571_428_572n, 6)).toBe('128,571.4286');
  });
  it('writes a Solana Pay transfer request with the amount from base units', () => {
    expect(
      encodeTransferRequestUrl({
        recipient: 'Shop1111111111111111111111111111111111111111',
        amount: 716_844_319_999_999_900n,
        decimals: 12,
        splToken: 'Mint111111111111111111111111111111111111111',
        reference: 'Ref11111111111111111111111111111111111111111',
        label: 'Aelo',
        message: 'Aelo order 1',
      }),
    ).toBe(
      'solana:Shop1111111111111111111111111111111111111111?amount=716844.3199999999&spl-token=Mint111111111111111111111111111111111111111&reference=Ref11111111111111111111111111111111111111111&label=Aelo&message=Aelo%20order%201',
    );
  });
});

describe('formatReceivedAmount', () => {
  it('groups, keeps at most 2 decimals and rounds down', () => {
    expect(formatReceivedAmount(238_095_238_095n, 6)).toBe('238,095.23');
    expect(formatReceivedAmount('1999999', 6)).toBe('1.99');
    expect(formatReceivedAmount(5_000_000n, 6)).toBe('5');
    expect(formatReceivedAmount(5_100_000n, 6)).toBe('5.1');
    expect(formatReceivedAmount(0n, 6)).toBe('0');
    expect(formatReceivedAmount(12_345n, 0)).toBe('12,345');
  });
});
