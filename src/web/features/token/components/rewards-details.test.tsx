import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { exampleDistribution, RewardsDetails } from './rewards-details';

describe('the landing page rewards section', () => {
  it('pays the example by the real rule: 90% of the pool pro rata, shares under $1 carried over', () => {
    const example = exampleDistribution();
    expect(example.budgetCents).toBe(90_000);
    expect(example.rows.map((r) => [r.rank, r.cents, r.skipped])).toEqual([
      [1, 10_800, false],
      [2, 7_650, false],
      [10, 1_800, false],
      [25, 540, false],
      [50, 45, true],
    ]);
    const html = renderToStaticMarkup(<RewardsDetails />);
    expect(html).toContain('$900.00');
    expect(html).toContain('under $1.00: carried over');
    expect(html).not.toContain('minimum applies');
  });

  it('shows where the live market cap stands against the $2M goal', () => {
    expect(renderToStaticMarkup(<RewardsDetails fdv={420_000} />)).toContain(
      'Market cap $420.00K (21.0% of the goal): $1.58M to go.',
    );
    expect(renderToStaticMarkup(<RewardsDetails fdv={2_500_000} />)).toContain(
      'Market cap $2.50M: random airdrops are on.',
    );
    expect(renderToStaticMarkup(<RewardsDetails />)).not.toContain('random-airdrop-status');
  });
});
