import { describe, expect, it } from 'vitest';
import { AIRDROP_GOAL_USD, airdropProgress, formatProgressPercent } from './progress';

describe('airdropProgress', () => {
  it('is the market cap as a share of the 2,000,000 USD goal below it', () => {
    expect(AIRDROP_GOAL_USD).toBe(2_000_000);
    expect(airdropProgress(1_000_000)).toEqual({ percent: 50, remainingUsd: 1_000_000, isReady: false });
    expect(airdropProgress(420_000)).toEqual({ percent: 21, remainingUsd: 1_580_000, isReady: false });
  });

  it('is ready at the goal', () => {
    expect(airdropProgress(2_000_000)).toEqual({ percent: 100, remainingUsd: 0, isReady: true });
  });

  it('caps at 100% above the goal', () => {
    expect(airdropProgress(2_500_000)).toEqual({ percent: 100, remainingUsd: 0, isReady: true });
  });

  it('treats a missing or negative market cap as zero', () => {
    expect(airdropProgress(0)).toEqual({ percent: 0, remainingUsd: 2_000_000, isReady: false });
    expect(airdropProgress(-5)).toEqual({ percent: 0, remainingUsd: 2_000_000, isReady: false });
    expect(airdropProgress(Number.NaN).percent).toBe(0);
  });

  it('formats the percent with one decimal', () => {
    expect(formatProgressPercent(21)).toBe('21.0%');
    expect(formatProgressPercent(99.96)).toBe('99.9%');
    expect(formatProgressPercent(100)).toBe('100.0%');
    expect(formatProgressPercent(airdropProgress(1_160_000).percent)).toBe('58.0%');
  });
});
