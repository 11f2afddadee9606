import { describe, expect, it } from 'vitest';
import { revenueTicks } from './format';

describe('revenueTicks', () => {
  it('gives distinct whole-dollar ticks when nothing sold', () => {
    expect(revenueTicks(0)).toEqual([0, 100, 200, 300, 400]);
  });

  it('covers small sums with whole dollars (no repeated labels)', () => {
    expect(revenueTicks(250)).toEqual([0, 100, 200, 300, 400]);
    expect(revenueTicks(950)).toEqual([0, 500, 1_000, 1_500, 2_000]);
  });

  it('uses steps of 1, 2 or 5 times a power of ten that reach the maximum', () => {
    expect(revenueTicks(7_500)).toEqual([0, 2_000, 4_000, 6_000, 8_000]);
    expect(revenueTicks(1_234_500)).toEqual([0, 500_000, 1_000_000, 1_500_000, 2_000_000]);
    for (const max of [1, 99, 401, 12_345, 9_876_543]) {
      const ticks = revenueTicks(max);
      expect(ticks).toHaveLength(5);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(new Set(ticks.map((t) => Math.round(t / 100))).size).toBe(5);
    }
  });
});
