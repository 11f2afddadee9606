import { cn } from '#web/lib/cn';
import { TrendingDown, TrendingUp } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { changeTone, formatCompactUsd, formatPercentChange, formatTokenPrice } from '#common/format';
import { TOKEN_SYMBOL } from '#common/token';
import { useTokenStats } from '../api/get-token-stats';
import { Marquee } from './marquee';

export const TICKER_LOADING_TEXT = 'Loading token data...';
export const TICKER_ERROR_TEXT = 'Failed to load token data. Please try again later.';

const band = 'flex h-10 items-center bg-stone-950 text-[13px] text-stone-300';

function Stat({ label, value, className }: { label: string; value: ReactNode; className?: string }) {
  return (
    <span className="flex items-center gap-2 px-5 whitespace-nowrap">
      <span className="text-stone-400">{label}</span>
      <span className={cn('font-medium text-white tabular-nums', className)}>{value}</span>
    </span>
  );
}

function Dot() {
  return <span aria-hidden="true" className="size-1 shrink-0 rounded-full bg-rose-500" />;
}

function StaticLine({ children, role }: { children: ReactNode; role?: 'status' | 'alert' }) {
  return (
    <div className={band}>
      <p role={role} className="mx-auto w-full max-w-7xl truncate px-5 sm:px-8">
        {children}
      </p>
    </div>
  );
}

/**
 * Ticker 1 (spec §2): the live token price (6 decimals), 24 h change (green at zero or more, red
 * below), 24 h volume and market cap ($x.xxM / $x.xxK / $x.xx), scrolling. Figures from the local
 * ledger's fixed prices are labelled as local data.
 */
export function TokenTicker() {
  const { pair, source, isPending, isError } = useTokenStats();
  if (isPending) return <StaticLine role="status">{TICKER_LOADING_TEXT}</StaticLine>;
  if (isError || !pair) return <StaticLine role="alert">{TICKER_ERROR_TEXT}</StaticLine>;
  const change = pair.priceChange.h24;
  const tone = changeTone(change);
  const Trend = tone === 'up' ? TrendingUp : TrendingDown;
  return (
    <section aria-label={`${TOKEN_SYMBOL} token ticker`} className={band}>
      <Marquee durationSeconds={45} className="w-full">
        <Stat label={`${TOKEN_SYMBOL}/USD`} value={formatTokenPrice(pair.priceUsd)} />
        <Dot />
        <Stat
          label="24h Change"
          className={tone === 'up' ? 'text-emerald-400' : 'text-red-400'}
          value={
            <span data-tone={tone} className="inline-flex items-center gap-1">
              <Trend className="size-3.5" aria-hidden="true" />
              {formatPercentChange(change)}
            </span>
          }
        />
        <Dot />
        <Stat label="24h Volume" value={formatCompactUsd(pair.volume.h24)} />
        <Dot />
        <Stat label="Market Cap" value={formatCompactUsd(pair.fdv)} />
        <Dot />
        {source === 'local' ? (
          <>
            <span className="px-5 text-[11px] font-semibold tracking-[0.14em] whitespace-nowrap text-amber-300 uppercase">
              Local data · fixed test prices
            </span>
            <Dot />
          </>
        ) : null}
      </Marquee>
    </section>
  );
}

/** A ticker that crashes shows its error line; the rest of the page carries on. */
export class TickerBoundary extends Component<{ children: ReactNode }, { hasError: boolean }> {
  override state = { hasError: false };

  static getDerivedStateFromError(): { hasError: boolean } {
    return { hasError: true };
  }

  override render() {
    if (this.state.hasError) return <StaticLine role="alert">{TICKER_ERROR_TEXT}</StaticLine>;
    return this.props.children;
  }
}
