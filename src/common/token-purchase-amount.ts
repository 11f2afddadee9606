import { parseDollarsToCents } from './money';

/**
 * Buy Token's amount rules (spec §5 Token purchase amount, §9): the field's keystrokes, its
 * messages and when Pay is on; schemas/token-sale.ts checks the same on the server. Plain code, no
 * zod, so the Buy Token modal's first open does not load the schemas.
 */

export const TOKEN_PURCHASE_LIMITS = { minUsd: 10, maxUsd: 50_000, defaultUsd: '100' } as const;

export const TOKEN_PURCHASE_MESSAGES = {
  min: 'Minimum purchase amount is $10',
  max: 'Maximum purchase amount is $50,000',
} as const;

/**
 * What the amount field keeps of a keystroke (spec §5): only digits and one dot, at most 2
 * decimals; input that would break that is ignored (the previous text stays).
 */
export function nextPurchaseAmount(input: string, previous: string): string {
  const kept = input.replace(/[^\d.]/g, '');
  const parts = kept.split('.');
  if (parts.length > 2) return previous;
  if ((parts[1]?.length ?? 0) > 2) return previous;
  return kept;
}

/** The message for an amount outside 10..50,000; null when it is inside, or still empty. */
export function purchaseAmountError(text: string): string | null {
  if (text === '' || text === '.') return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value < TOKEN_PURCHASE_LIMITS.minUsd) return TOKEN_PURCHASE_MESSAGES.min;
  if (value > TOKEN_PURCHASE_LIMITS.maxUsd) return TOKEN_PURCHASE_MESSAGES.max;
  return null;
}

/** The pay button is off on error, on an empty value, or under 10 (spec §5). */
export function isPurchaseAmountPayable(text: string): boolean {
  return parseDollarsToCents(text) !== null && purchaseAmountError(text) === null;
}
