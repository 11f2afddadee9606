/**
 * Crypto amounts in integer base units (lamports: 9 decimals; AELO: 6), turned from and into the
 * decimal text people and Solana Pay URLs read. No floating point: a price such as "0.000420" is
 * read as the fraction 420 / 1,000,000, and the conversion rounds once, in the shop's favour for
 * what a shopper pays and in the buyer's disfavour for what the shop gives.
 */

/** SOL's decimals: 1 SOL = 10^9 lamports. */
export const SOL_DECIMALS = 9;
/** The spec shows crypto amounts to 4 decimals (they are computed to 9). */
export const CRYPTO_DISPLAY_DECIMALS = 4;

/** "0.000420" -> { numerator: 420n, denominator: 1000000n }; null for anything but a positive decimal. */
export function parseDecimal(text: string): { numerator: bigint; denominator: bigint } | null {
  const match = /^(\d{1,20})(?:\.(\d{1,18}))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  const numerator = BigInt(`${match[1]}${fraction}`);
  if (numerator === 0n) return null;
  return { numerator, denominator: 10n ** BigInt(fraction.length) };
}

function divide(numerator: bigint, denominator: bigint, rounding: 'up' | 'down'): bigint {
  const quotient = numerator / denominator;
  return rounding === 'up' && quotient * denominator !== numerator ? quotient + 1n : quotient;
}

/**
 * USD cents at a USD price per whole coin, in the coin's base units: cents x 10^decimals / (100 x
 * price), rounded up (what a shopper pays: the shop never receives less than the total) or down.
 */
export function centsToBaseUnits(
  cents: number,
  priceUsd: string,
  decimals: number,
  rounding: 'up' | 'down',
): bigint {
  const price = parseDecimal(priceUsd);
  if (!price) throw new RangeError(`Invalid price: ${priceUsd}`);
  if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`Invalid cents: ${cents}`);
  return divide(
    BigInt(cents) * 10n ** BigInt(decimals) * price.denominator,
    100n * price.numerator,
    rounding,
  );
}

/** 1234500000n, 9 -> "1.2345": every significant digit, no trailing zeros, no exponent. */
export function baseUnitsToDecimal(amount: bigint | string, decimals: number): string {
  const value = typeof amount === 'bigint' ? amount : BigInt(amount);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** "0.0667" for display: to 4 decimals, rounded up so a shown amount is never less than the due one. */
export function formatCryptoAmount(amount: bigint | string, decimals: number): string {
  const value = typeof amount === 'bigint' ? amount : BigInt(amount);
  const shown = Math.min(CRYPTO_DISPLAY_DECIMALS, decimals);
  const step = 10n ** BigInt(decimals - shown);
  const rounded = divide(value, step, 'up');
  const text = baseUnitsToDecimal(rounded, shown);
  const [whole = '0', fraction = ''] = text.split('.');
  return `${BigInt(whole).toLocaleString('en-US')}.${fraction.padEnd(shown, '0')}`;
}

/**
 * "238,095.23" for what someone receives: grouped, at most `shown` decimals, rounded down so a
 * shown amount is never more than the one delivered; trailing zeros dropped.
 */
export function formatReceivedAmount(amount: bigint | string, decimals: number, shown = 2): string {
  const value = typeof amount === 'bigint' ? amount : BigInt(amount);
  const kept = Math.min(shown, decimals);
  const truncated = value / 10n ** BigInt(decimals - kept);
  const [whole = '0', fraction] = baseUnitsToDecimal(truncated, kept).split('.');
  return `${BigInt(whole).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
}

/** Lamports in one SOL. */
export const LAMPORTS_PER_SOL = 1_000_000_000;

/** A lamport amount (decimal string or bigint) in SOL, for display only. */
export function lamportsToSol(lamports: string | bigint): number {
  const value = typeof lamports === 'bigint' ? lamports : BigInt(lamports || '0');
  const whole = value / BigInt(LAMPORTS_PER_SOL);
  const rest = value % BigInt(LAMPORTS_PER_SOL);
  return Number(whole) + Number(rest) / LAMPORTS_PER_SOL;
}
