import { Clock, Crown, ShieldOff, Wallet } from 'lucide-react';
import { formatUsd } from '#common/money';
import { TOKEN_SYMBOL } from '#common/token';

/** Spec §2, §9: the top 50 share 90% of liquidity-pool rewards pro rata, at least 1 USD each. */
export const TOP_HOLDERS = 50;
export const TOP_HOLDERS_SHARE_PERCENT = 90;
export const MIN_AIRDROP_CENTS = 100;

const facts = [
  {
    icon: Wallet,
    title: 'Claimed automatically',
    text: 'Nothing to sign up for or claim: rewards are sent as SOL straight to the wallet that holds the tokens.',
  },
  {
    icon: Crown,
    title: `Daily airdrops to the top ${TOP_HOLDERS}`,
    text: `Every day the ${TOP_HOLDERS} largest holders share ${TOP_HOLDERS_SHARE_PERCENT}% of the liquidity-pool rewards in proportion to their holdings, with a minimum of ${formatUsd(MIN_AIRDROP_CENTS)} per airdrop.`,
  },
  {
    icon: Clock,
    title: 'Random airdrops',
    text: 'Random airdrops arrive at random intervals of up to 24 hours: one every 12 hours on average.',
  },
  {
    icon: ShieldOff,
    title: 'Real holders only',
    text: `Smart-contract and program-derived addresses (pools, vaults, exchanges) are excluded from the top ${TOP_HOLDERS}.`,
  },
] as const;

/** An example pool and holders, to show the pro-rata rule and the 1 USD minimum at work. */
const EXAMPLE_POOL_CENTS = 100_000;
const exampleHolders = [
  { rank: 1, sharePercent: 12 },
  { rank: 2, sharePercent: 8.5 },
  { rank: 10, sharePercent: 2 },
  { rank: 25, sharePercent: 0.6 },
  { rank: 50, sharePercent: 0.05 },
] as const;

/** A holder's airdrop: their share of the top 50's pool, never below the minimum. */
export function exampleAirdropCents(poolCents: number, sharePercent: number): number {
  const pro = Math.round((poolCents * TOP_HOLDERS_SHARE_PERCENT * sharePercent) / 10_000);
  return Math.max(MIN_AIRDROP_CENTS, pro);
}

/** The rewards section's body: how rewards work, and an example distribution. */
export function RewardsDetails() {
  const topPoolCents = (EXAMPLE_POOL_CENTS * TOP_HOLDERS_SHARE_PERCENT) / 100;
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_1.1fr] lg:gap-14">
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-1">
        {facts.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-white text-rose-600 ring-1 ring-stone-200">
              <Icon className="size-5" strokeWidth={1.75} aria-hidden="true" />
            </span>
            <div>
              <h3 className="text-[15px] font-semibold text-stone-950">{title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-stone-500">{text}</p>
            </div>
          </li>
        ))}
      </ul>

      <div className="overflow-hidden rounded-2xl bg-white ring-1 ring-stone-200/80">
        <div className="border-b border-stone-100 px-5 py-4 sm:px-6">
          <h3 className="text-[15px] font-semibold text-stone-950">Example distribution</h3>
          <p className="mt-1 text-sm leading-relaxed text-stone-500">
            A {formatUsd(EXAMPLE_POOL_CENTS)} liquidity-pool reward: {TOP_HOLDERS_SHARE_PERCENT}% (
            {formatUsd(topPoolCents)}) goes to the top {TOP_HOLDERS} {TOKEN_SYMBOL} holders.
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
            {exampleHolders.map(({ rank, sharePercent }) => {
              const cents = exampleAirdropCents(EXAMPLE_POOL_CENTS, sharePercent);
              const isMinimum = cents === MIN_AIRDROP_CENTS;
              return (
                <tr key={rank}>
                  <th scope="row" className="px-5 py-3 font-medium text-stone-900 sm:px-6">
                    #{rank}
                  </th>
                  <td className="px-3 py-3 text-right text-stone-600">{sharePercent}%</td>
                  <td className="px-5 py-3 text-right font-semibold text-stone-950 sm:px-6">
                    {formatUsd(cents)}
                    {isMinimum ? (
                      <span className="block text-xs font-normal text-rose-600">minimum applies</span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="border-t border-stone-100 px-5 py-3.5 text-xs leading-relaxed text-stone-500 sm:px-6">
          Amounts are paid in SOL at the value shown. Figures are illustrative; real airdrops follow actual
          holdings at the time of each drop.
        </p>
      </div>
    </div>
  );
}
