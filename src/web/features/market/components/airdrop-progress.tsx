import { cn } from '#web/lib/cn';
import { Coins } from 'lucide-react';
import { formatCompactUsd } from '#common/format';
import { AIRDROP_GOAL_USD, airdropProgress, formatProgressPercent } from '#common/progress';
import { Skeleton } from '#web/components/ui/skeleton';
import { useTokenStats } from '../api/get-token-stats';

export const READY_TO_CLAIM_TEXT = 'Ready to Claim!';

/**
 * The hero's airdrop progress (spec §2): the market cap (fdv) as a share of the 2,000,000 USD
 * goal, capped at 100%. At 100% it says 'Ready to Claim!', otherwise how much is left.
 */
export function AirdropProgress({ className }: { className?: string }) {
  const { pair, source, isPending, isError } = useTokenStats();
  const goal = formatCompactUsd(AIRDROP_GOAL_USD);
  const progress = pair ? airdropProgress(pair.fdv) : null;
  const percentText = progress ? formatProgressPercent(progress.percent) : null;

  return (
    <section
      aria-labelledby="airdrop-progress-title"
      className={cn('rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6', className)}
    >
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2
            id="airdrop-progress-title"
            className="text-[11px] font-semibold tracking-[0.16em] text-stone-500 uppercase"
          >
            Airdrop progress
          </h2>
          <p className="mt-1.5 text-sm font-medium text-stone-900">
            First random airdrop at a {goal} market cap
          </p>
        </div>
        {isPending ? (
          <Skeleton className="h-7 w-16" />
        ) : percentText ? (
          <p className="text-2xl font-semibold tracking-tight text-stone-950 tabular-nums">{percentText}</p>
        ) : null}
      </div>

      <div
        role="progressbar"
        aria-label="Airdrop progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress ? Math.round(progress.percent * 10) / 10 : undefined}
        aria-valuetext={percentText ? `${percentText} of the ${goal} market-cap goal` : undefined}
        className="mt-4 h-2 overflow-hidden rounded-full bg-stone-100"
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width] duration-700 ease-out',
            progress?.isReady ? 'bg-emerald-500' : 'bg-gradient-to-r from-rose-400 to-rose-600',
          )}
          style={{ width: `${progress?.percent ?? 0}%` }}
        />
      </div>

      <div className="mt-3 flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-sm">
        {isPending ? (
          <Skeleton className="h-4 w-40" />
        ) : isError || !progress || !pair ? (
          <p className="text-stone-500">Market cap unavailable right now.</p>
        ) : progress.isReady ? (
          <p className="inline-flex items-center gap-1.5 font-semibold text-emerald-700">
            <Coins className="size-4" aria-hidden="true" />
            {READY_TO_CLAIM_TEXT}
          </p>
        ) : (
          <p className="text-stone-600">
            <span className="font-semibold text-stone-950 tabular-nums">
              {formatCompactUsd(progress.remainingUsd)}
            </span>{' '}
            to go
          </p>
        )}
        {pair ? (
          <p className="text-stone-500 tabular-nums">
            Market cap {formatCompactUsd(pair.fdv)}
            {source === 'local' ? <span className="text-amber-700"> · local data</span> : null}
          </p>
        ) : null}
      </div>
    </section>
  );
}
