/**
 * Money rules of the spec (§9), in integer cents. Dollars appear only when formatted for display.
 */
export const FREE_SHIPPING_THRESHOLD_CENTS = 5_000;
export const FLAT_SHIPPING_CENTS = 499;
/** Paying with the shop's own token gives 10% off (amount times 0.9). */
export const TOKEN_DISCOUNT_PERCENT = 10;
export const MAX_LINE_QUANTITY = 5;

/** Free shipping at a subtotal of 50 USD or more; otherwise a flat 4.99 USD. Empty carts ship nothing. */
export function shippingCentsFor(subtotalCents: number): number {
  if (subtotalCents <= 0) return 0;
  return subtotalCents >= FREE_SHIPPING_THRESHOLD_CENTS ? 0 : FLAT_SHIPPING_CENTS;
}

/** The token discount on a total, rounded to the nearest cent (half up). */
export function tokenDiscountCents(totalCents: number): number {
  return Math.round((totalCents * TOKEN_DISCOUNT_PERCENT) / 100);
}

export interface CartTotals {
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}

export function cartTotals(lines: ReadonlyArray<{ priceCents: number; quantity: number }>): CartTotals {
  const subtotalCents = lines.reduce((sum, l) => sum + l.priceCents * l.quantity, 0);
  const shippingCents = shippingCentsFor(subtotalCents);
  return { subtotalCents, shippingCents, totalCents: subtotalCents + shippingCents };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** `$1,234.50`: money is shown with a dollar sign and 2 decimals. */
export function formatUsd(cents: number): string {
  return usd.format(cents / 100);
}

/** `1234.50` from 123450 cents: the amount without sign or separators (an input's text, schema.org's price). */
export function centsToDecimal(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Parses a dollar amount typed by a person ("12", "12.5", "12.50") into cents; null when invalid. */
export function parseDollarsToCents(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  const [whole, frac = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
