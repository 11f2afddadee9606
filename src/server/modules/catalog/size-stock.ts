import { SIZES, sizeStockTotal, type SizeStock } from '#common/schemas/product';
import { AppError } from '#server/lib/app-error';

/**
 * Stock per size as the admin sees and edits it. The database keeps the buyable units per size
 * (products.size_stock); open checkouts hold the rest (stock_reservations.size). The admin sees
 * units on hand per size (buyable + held) and an edit to N sets the size's buyable units to N
 * minus what is held in it, as the product's Quantity does.
 */

/** Units on hand per size: the buyable ones plus those held in that size. */
export function sizeStockOnHand(
  stock: SizeStock | null,
  held: Readonly<Record<string, number>>,
): SizeStock | null {
  if (!stock) return null;
  const onHand: SizeStock = {};
  for (const size of SIZES) {
    const units = stock[size];
    if (units !== undefined) onHand[size] = units + (held[size] ?? 0);
  }
  return onHand;
}

/**
 * The buyable units per size for an edit to `onHand` per size; a size set below what open
 * checkouts hold in it is a 400 on that size's field.
 */
export function sizeStockToStore(onHand: SizeStock, held: Readonly<Record<string, number>>): SizeStock {
  const buyable: SizeStock = {};
  for (const size of SIZES) {
    const units = onHand[size];
    if (units === undefined) continue;
    const inCheckouts = held[size] ?? 0;
    if (units < inCheckouts) {
      const message = `Quantity cannot be less than the ${inCheckouts} held by open checkouts`;
      throw new AppError('VALIDATION_FAILED', `sizeStock.${size}: ${message}`, {
        [`sizeStock.${size}`]: message,
      });
    }
    buyable[size] = units - inCheckouts;
  }
  return buyable;
}

export { sizeStockTotal };
