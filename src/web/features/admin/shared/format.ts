/** Display helpers of the back office (dates readable, in the admin's own time zone). */

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `Mar 4, 2026` */
export function formatDate(value: string | Date | null | undefined): string {
  const date = value ? toDate(value) : null;
  return date ? dateFormat.format(date) : '—';
}

/** `Mar 4, 2026, 3:07 PM` */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = value ? toDate(value) : null;
  return date ? dateTimeFormat.format(date) : '—';
}

/** `Mar 4` from `2026-03-04` (a calendar day, not shifted by the time zone). */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return day;
  return dayFormat.format(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** `12.3%`-style trend text with its sign; `—` when there is no baseline (null). */
export function formatTrend(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return '—';
  const rounded = Math.round(percent * 10) / 10;
  if (rounded === 0) return '0.0%';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)}%`;
}

/** `2.50` SOL with 2 decimals. */
export function formatSol(amount: number | string): string {
  const value = typeof amount === 'number' ? amount : Number(amount);
  return (Number.isFinite(value) ? value : 0).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

/** `1,234` */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** 'update_api_config' -> 'Update Api Config' (audit actions as labels). */
export function humanizeAction(action: string): string {
  return action
    .split(/[_.\-\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

const PAYMENT_METHOD_LABELS: Record<string, string> = {
  card: 'Credit Card',
  sol: 'Solana (SOL)',
  aelo: 'AELO Token',
};

/** 'card' -> 'Credit Card', 'sol' -> 'Solana (SOL)', 'aelo' -> 'AELO Token'. */
export function paymentMethodLabel(method: string): string {
  return PAYMENT_METHOD_LABELS[method] ?? humanizeAction(method);
}

/**
 * The revenue axis's ticks, in cents: five evenly spaced whole-dollar values from 0 that cover
 * `maxCents` (steps of 1, 2 or 5 times a power of ten dollars). Whole dollars, so no two ticks
 * print the same label (an axis of only `$0` when nothing sold, or `$1, $1, $2` for small sums).
 */
export function revenueTicks(maxCents: number): number[] {
  const TICKS = 4;
  const neededDollars = Math.max(1, Math.ceil(Math.max(0, maxCents) / 100 / TICKS));
  const magnitude = 10 ** Math.floor(Math.log10(neededDollars));
  const stepDollars =
    [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= neededDollars) ?? 10 * magnitude;
  return Array.from({ length: TICKS + 1 }, (_, i) => i * stepDollars * 100);
}
