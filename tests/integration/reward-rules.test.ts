/** The holder-rewards rules of src/common/rewards.ts, with worked numbers (docs/rewards.md). */
import { describe, expect, it } from 'vitest';
import {
  centsToLamports,
  pickByHoldings,
  poolShareCents,
  randomAirdropDelayMs,
  top50BudgetCents,
  top50Shares,
  usdToMicros,
} from '#common/rewards';
import { seededRandom } from '../helpers/seeded-random';

describe('holder-rewards rules', () => {
  it('splits an order 10 / 10 and keeps the rounding with operations', () => {
    expect(poolShareCents(12_345, 'buyback')).toBe(1_234);
    expect(poolShareCents(12_345, 'random')).toBe(1_234);
    expect(poolShareCents(9, 'random')).toBe(0);
  });

  it('gives the top 50 90% of the pool in proportion, never more, skipping shares under 1 USD', () => {
    expect(top50BudgetCents(8_889)).toBe(8_000);
    expect(top50BudgetCents(0)).toBe(0);
    const holders = [
      { owner: 'a', amount: 600n },
      { owner: 'b', amount: 300n },
      { owner: 'c', amount: 99n },
      { owner: 'd', amount: 1n },
    ];
    const shares = top50Shares(1_000, holders);
    expect(shares.map((s) => [s.owner, s.cents, s.skipped])).toEqual([
      ['a', 600, false],
      ['b', 300, false],
      ['c', 99, true],
      ['d', 1, true],
    ]);
    expect(shares.reduce((n, s) => n + s.cents, 0)).toBeLessThanOrEqual(1_000);
    expect(top50Shares(0, holders).every((s) => s.skipped)).toBe(true);
  });

  it('converts cents to lamports at the SOL price, rounding down', () => {
    expect(centsToLamports(15_000, usdToMicros(150))).toBe(1_000_000_000n);
    expect(centsToLamports(100, usdToMicros(187.23))).toBe(5_341_024n);
    expect(() => centsToLamports(1, 0n)).toThrow();
  });

  it('draws random-airdrop intervals with a mean of 12 hours', () => {
    const random = seededRandom(42);
    const n = 20_000;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += randomAirdropDelayMs(random());
    const meanHours = sum / n / 3_600_000;
    expect(Math.abs(meanHours - 12) / 12).toBeLessThan(0.05);
    expect(randomAirdropDelayMs(0)).toBe(0);
  });

  it('picks winners with chance proportional to holdings', () => {
    const random = seededRandom(7);
    const holders = [
      { owner: 'a', amount: 1n },
      { owner: 'b', amount: 2n },
      { owner: 'c', amount: 7n },
    ];
    const wins = { a: 0, b: 0, c: 0 };
    const n = 30_000;
    for (let i = 0; i < n; i++) wins[pickByHoldings(holders, random())!.owner as 'a' | 'b' | 'c']++;
    expect(wins.a / n).toBeCloseTo(0.1, 1);
    expect(wins.b / n).toBeCloseTo(0.2, 1);
    expect(wins.c / n).toBeCloseTo(0.7, 1);
    expect(pickByHoldings([], 0.5)).toBeNull();
    expect(pickByHoldings(holders, 0.999_999_999)!.owner).toBe('c');
  });
});
