import { describe, expect, it } from 'vitest';
import {
  changeTone,
  formatCompactUsd,
  formatPercentChange,
  formatTokenPrice,
  formatWeightLbs,
  shortOrderId,
  shortHash,
} from './format';

describe('formatTokenPrice', () => {
  it('shows 6 decimals from the feed string or a number', () => {
    expect(formatTokenPrice('0.000420')).toBe('$0.000420');
    expect(formatTokenPrice('0.00042')).toBe('$0.000420');
    expect(formatTokenPrice('1.23456789')).toBe('$1.234568');
    expect(formatTokenPrice(2)).toBe('$2.000000');
  });

  it('shows zero for a value that is not a number', () => {
    expect(formatTokenPrice('n/a')).toBe('$0.000000');
  });
});

describe('formatCompactUsd', () => {
  it('uses M from one million', () => {
    expect(formatCompactUsd(1_000_000)).toBe('$1.00M');
    expect(formatCompactUsd(2_500_000)).toBe('$2.50M');
    expect(formatCompactUsd(1_234_567_890)).toBe('$1234.57M');
  });

  it('uses K from one thousand', () => {
    expect(formatCompactUsd(1_000)).toBe('$1.00K');
    expect(formatCompactUsd(125_430.5)).toBe('$125.43K');
    expect(formatCompactUsd(420_000)).toBe('$420.00K');
    expect(formatCompactUsd(999_999)).toBe('$1.00M');
    expect(formatCompactUsd(999.999)).toBe('$1.00K');
  });

  it('shows plain dollars below one thousand', () => {
    expect(formatCompactUsd(999.99)).toBe('$999.99');
    expect(formatCompactUsd(0)).toBe('$0.00');
    expect(formatCompactUsd(12.3)).toBe('$12.30');
  });

  it('keeps the sign of negative amounts and survives bad input', () => {
    expect(formatCompactUsd(-2_000)).toBe('-$2.00K');
    expect(formatCompactUsd(Number.NaN)).toBe('$0.00');
  });
});

describe('percent change', () => {
  it('signs the change with 2 decimals', () => {
    expect(formatPercentChange(3.25)).toBe('+3.25%');
    expect(formatPercentChange(-1.5)).toBe('-1.50%');
    expect(formatPercentChange(0)).toBe('+0.00%');
    expect(formatPercentChange(-0.001)).toBe('+0.00%');
  });

  it('is green at zero and above, red below', () => {
    expect(changeTone(0)).toBe('up');
    expect(changeTone(12)).toBe('up');
    expect(changeTone(-0.01)).toBe('down');
  });
});

describe('shorteners', () => {
  it('shows a signature as its first and last 8 characters', () => {
    const sig = '5xY9abcdEFGHijklMNOPqrstUVWXyz0123456789Qm3k8PzR';
    expect(shortHash(sig)).toBe('5xY9abcd...Qm3k8PzR');
    expect(shortHash('short')).toBe('short');
  });

  it('shows an order number as the first 8 characters of the id', () => {
    expect(shortOrderId('3f2a9c1e-77b0-4d7e-9a55-0c1d2e3f4a5b')).toBe('3f2a9c1e');
  });
});

describe('money and weights', () => {
  it('formats weights in lbs', () => {
    expect(formatWeightLbs(0.4)).toBe('0.4 lbs');
    expect(formatWeightLbs(2.25)).toBe('2.25 lbs');
    expect(formatWeightLbs(1)).toBe('1 lbs');
  });
});
