import { Clock, Crown, ShieldOff, Wallet } from 'lucide-react';
import { formatCompactUsd } from '#common/format';
import { formatUsd } from '#common/money';
import { AIRDROP_GOAL_USD, airdropProgress, formatProgressPercent } from '#common/progress';
import {
  MIN_AIRDROP_CENTS,
  RANDOM_AIRDROP_MEAN_HOURS,
  REVENUE_SPLIT_PERCENT,
  TOP_HOLDERS,
  TOP_HOLDERS_SHARE_PERCENT,
  top50BudgetCents,
  top50Shares,
} from '#common/rewards';
import { TOKEN_SYMBOL } from '#common/token';

const facts = [
  {
    icon: Wallet,
    title: 'Claimed automatically',
    text: 'Nothing to sign up for or claim: rewards are sent as SOL straight to the wallet that holds the tokens.',
  },
  {
    icon: Crown,
    title: `Daily airdrops to the top ${TOP_HOLDERS}`,
    text: `Every day the ${TOP_HOLDERS} largest holders share ${TOP_HOLDERS_SHARE_PERCENT}% of the liquidity-pool rewards in proportion to their holdings, with a minimum of ${formatUsd(MIN_AIRDROP_CENTS)} per airdrop: a smaller share stays in the pool for the next day.`,
  },
  {
    icon: Clock,
    title: 'Random airdrops',
    showsGoal: true,
    text: `Once the market cap reaches ${formatCompactUsd(AIRDROP_GOAL_USD)}, random airdrops come at random intervals averaging ${RANDOM_AIRDROP_MEAN_HOURS} hours. The winner is drawn with a chance in proportion to their holdings and receives the random-holder pool (${REVENUE_SPLIT_PERCENT.random}% of sales).`,
  },
  {
    icon: ShieldOff,
    title: 'Real holders only',
    text: `Smart-contract and program-derived addresses (pools, vaults, exchanges) are excluded from the top ${TOP_HOLDERS}.`,
  },
] as const;

/**
 * An example liquidity-pool balance and top-50 holdings (in basis points of the top 50's tokens),
 * paid by the same rule the server pays with (`top50Shares`): pro rata, rounded down to the cent,
 * shares under the minimum carried over.
 */
const EXAMPLE_POOL_CENTS = 100_000;
const exampleHolders = [
  { rank: 1, basisPoints: 1_200 },
  { rank: 2, basisPoints: 850 },
  { rank: 10, basisPoints: 200 },
  { rank: 25, basisPoints: 60 },
  { rank: 50, basisPoints: 5 },
] as const;

export function exampleDistribution() {
  const budgetCents = top50BudgetCents(EXAMPLE_POOL_CENTS);
  const shown = exampleHolders.reduce((sum, h) => sum + h.basisPoints, 0);
  const holdings = [
    ...exampleHolders.map((h) => ({ owner: `#${h.rank}`, amount: BigInt(h.basisPoints) })),
    { owner: 'the other holders', amount: BigInt(10_000 - shown) },
  ];
  const shares = top50Shares(budgetCents, holdings);
  const rows = exampleHolders.map((h, i) => ({ ...h, ...shares[i]! }));
  return { poolCents: EXAMPLE_POOL_CENTS, budgetCents, rows };
}

/** Where the market cap stands against the random-airdrop goal, from the live token stats. */
function RandomAirdropStatus({ fdv }: { fdv: number | undefined }) {
  if (fdv === undefined) return null;
  const progress = airdropProgress(fdv);
  return (
    <p className="mt-2 text-xs font-medium text-stone-600" data-testid="random-airdrop-status">
      {progress.isReady
        ? `Market cap ${formatCompactUsd(fdv)}: random airdrops are on.`
        : `Market cap ${formatCompactUsd(fdv)} (${formatProgressPercent(progress.percent)} of the goal): ${formatCompactUsd(progress.remainingUsd)} to go.`}
    </p>
  );
}

/** The rewards section's body: how rewards work, the live goal, and an example distribution. */
export function RewardsDetails({ fdv }: { fdv?: number | undefined }) {
  const example = exampleDistribution();
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_1.1fr] lg:gap-14">
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-1">
        {facts.map(({ icon: Icon, title, text, ...fact }) => (
          <li key={title} className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-white text-rose-600 ring-1 ring-stone-200">
              <Icon className="size-5" strokeWidth={1.75} aria-hidden="true" />
            </span>
            <div>
              <h3 className="text-[15px] font-semibold text-stone-950">{title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-stone-500">{text}</p>
              {'showsGoal' in fact ? <RandomAirdropStatus fdv={fdv} /> : null}
            </div>
          </li>
        ))}
      </ul>

      <div className="overflow-hidden rounded-2xl bg-white ring-1 ring-stone-200/80">
        <div className="border-b border-stone-100 px-5 py-4 sm:px-6">
          <h3 className="text-[15px] font-semibold text-stone-950">Example distribution</h3>
          <p className="mt-1 text-sm leading-relaxed text-stone-500">
            A {formatUsd(example.poolCents)} liquidity-pool reward: {TOP_HOLDERS_SHARE_PERCENT}% (
            {formatUsd(example.budgetCents)}) goes to the top {TOP_HOLDERS} {TOKEN_SYMBOL} holders.
          </p>
        </div>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Example airdrop per holder rank</caption>
          <thead className="bg-stone-50 text-xs text-stone-500">
            <tr>
              <th scope="col" className="px-5 py-2.5 font-medium sm:px-6">
                Rank
              </th>
              <th scope="col" className="px-3 py-2.5 text-right font-medium">
                Share of top {TOP_HOLDERS}
              </th>
              <th scope="col" className="px-5 py-2.5 text-right font-medium sm:px-6">
                Airdrop
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100 tabular-nums">
            {example.rows.map(({ rank, basisPoints, cents, skipped }) => (
              <tr key={rank}>
                <th scope="row" className="px-5 py-3 font-medium text-stone-900 sm:px-6">
                  #{rank}
                </th>
                <td className="px-3 py-3 text-right text-stone-600">{basisPoints / 100}%</td>
                <td className="px-5 py-3 text-right font-semibold text-stone-950 sm:px-6">
                  {skipped ? (
                    <>
                      <span className="text-stone-500">{formatUsd(cents)}</span>
                      <span className="block text-xs font-normal text-rose-700">
                        under {formatUsd(MIN_AIRDROP_CENTS)}: carried over
                      </span>
                    </>
                  ) : (
                    formatUsd(cents)
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="border-t border-stone-100 px-5 py-3.5 text-xs leading-relaxed text-stone-500 sm:px-6">
          Amounts are paid in SOL at the SOL price of the moment they are sent. Figures are illustrative; real
          airdrops follow actual holdings at the time of each drop.
        </p>
      </div>
    </div>
  );
}
