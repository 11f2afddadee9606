/**
 * Display formatting shared by the browser and the server (spec §2 ticker, §9): token price to
 * 6 decimals, large USD amounts as $x.xxM / $x.xxK / $x.xx, signed percent changes, shortened
 * transaction signatures and order numbers. Money in cents goes through formatUsd (money.ts).
 */

/** `$0.000420`: the token price, always 6 decimals. Non-numeric input shows as `$0.000000`. */
export function formatTokenPrice(priceUsd: string | number): string {
  const value = typeof priceUsd === 'number' ? priceUsd : Number.parseFloat(priceUsd);
  return `$${(Number.isFinite(value) ? value : 0).toFixed(6)}`;
}

/**
 * `$1.25M`, `$125.43K`, `$999.00`: volume and market cap as the ticker shows them. Millions from
 * 1,000,000, thousands from 1,000, plain dollars below; always 2 decimals. Negative amounts keep
 * their sign in front of the dollar sign.
 */
export function formatCompactUsd(amount: number): string {
  if (!Number.isFinite(amount)) return '$0.00';
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  // Thresholds after rounding to cents of the unit, so 999,999 shows as $1.00M, not $1000.00K.
  if (abs >= 999_995) return `${sign}$${(abs / 1_000_000).toFixed(2)}M`;
  if (abs >= 999.995) return `${sign}$${(abs / 1_000).toFixed(2)}K`;
  return `${sign}$${abs.toFixed(2)}`;
}

export type ChangeTone = 'up' | 'down';

/** Green (`up`) when the change is zero or more, red (`down`) otherwise. */
export function changeTone(percent: number): ChangeTone {
  return percent >= 0 ? 'up' : 'down';
}

/** `+3.25%`, `-1.50%`, `+0.00%`: a 24 h change with its sign and 2 decimals. */
export function formatPercentChange(percent: number): string {
  const value = Number.isFinite(percent) ? percent : 0;
  // -0.001 rounds to "-0.00": show it as no change.
  const fixed = Math.abs(value).toFixed(2);
  if (Number(fixed) === 0) return '+0.00%';
  return `${value > 0 ? '+' : '-'}${fixed}%`;
}

/** `5xY9abcd...Qm3k8PzR`: a signature or wallet address as its first 8 and last 8 characters. */
export function shortHash(value: string): string {
  if (value.length <= 19) return value;
  return `${value.slice(0, 8)}...${value.slice(-8)}`;
}

/** The order number shoppers see: the first 8 characters of the order id. */
export function shortOrderId(id: string): string {
  return id.slice(0, 8);
}

/** `0.4 lbs`, `2.25 lbs`: a shipping weight without trailing zeros. */
export function formatWeightLbs(pounds: number): string {
  return `${Number(pounds.toFixed(2))} lbs`;
}
