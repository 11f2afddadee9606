import { cn } from '#web/lib/cn';
import { TrendingDown, TrendingUp, type LucideIcon } from 'lucide-react';
import { formatTrend } from '#web/features/admin/shared/format';

export interface StatCardProps {
  title: string;
  value: string;
  /** Week-over-week change in percent; null when the earlier week had nothing to compare. */
  trend: number | null;
  icon: LucideIcon;
}

/** A headline figure with its trend: green up, red down, '—' without a baseline. */
export function StatCard({ title, value, trend, icon: Icon }: StatCardProps) {
  const isUp = trend !== null && trend >= 0;
  const TrendIcon = isUp ? TrendingUp : TrendingDown;
  return (
    <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80">
      <div className="flex items-start justify-between gap-3">
        <p className="text-sm font-medium text-stone-500">{title}</p>
        <span className="inline-flex size-9 items-center justify-center rounded-xl bg-rose-50 text-rose-600">
          <Icon className="size-4.5" strokeWidth={1.75} aria-hidden="true" />
        </span>
      </div>
      <p className="mt-2 text-2xl font-semibold tracking-tight text-stone-950 tabular-nums sm:text-[1.7rem]">
        {value}
      </p>
      <p className="mt-2 flex items-center gap-1.5 text-xs">
        {trend === null ? (
          <span className="font-medium text-stone-500">
            <span aria-hidden="true">—</span>
            <span className="sr-only">No trend (nothing to compare with)</span>
          </span>
        ) : (
          <span
            className={cn(
              'inline-flex items-center gap-1 rounded-full px-1.5 py-0.5 font-semibold tabular-nums',
              isUp ? 'bg-emerald-50 text-emerald-700' : 'bg-red-50 text-red-700',
            )}
          >
            <TrendIcon className="size-3.5" aria-hidden="true" />
            {formatTrend(trend)}
          </span>
        )}
        <span className="text-stone-500">vs last week</span>
      </p>
    </div>
  );
}
