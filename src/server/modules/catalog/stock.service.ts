import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import { createStockRepository, type CheckoutProductRow } from './stock.repository';

/**
 * Stock reservations. A checkout takes its units from `products.quantity` at once (a conditional
 * decrement that can never go below zero) and records them in stock_reservations; the units come
 * back when the payment ends without an order (released), or stay gone when it is confirmed
 * (consumed). Every function runs on the Kysely instance it is given: pass the caller's
 * transaction so the stock moves together with the payment it belongs to.
 *
 * Products are always touched in id order, so two transactions taking several products can not
 * deadlock each other.
 */

export interface StockRequest {
  productId: string;
  title: string;
  quantity: number;
}

export interface StockChange {
  productIds: string[];
}

/** What a shopper is told when a product has fewer units than asked for. */
export function outOfStockMessage(title: string, available: number): string {
  return available <= 0 ? `${title} is sold out` : `Only ${available} left of ${title}`;
}

/**
 * The units each product needs for a set of lines (several sizes or colours of one product add
 * up), one request per product in the order the products first appear.
 */
export function stockRequestsFor(
  lines: ReadonlyArray<{ productId: string; title: string; quantity: number }>,
): StockRequest[] {
  const byProduct = new Map<string, StockRequest>();
  for (const { productId, title, quantity } of lines) {
    const entry = byProduct.get(productId);
    if (entry) entry.quantity += quantity;
    else byProduct.set(productId, { productId, title, quantity });
  }
  return [...byProduct.values()];
}

export async function loadCheckoutProducts(
  db: Db,
  productIds: readonly string[],
): Promise<Map<string, CheckoutProductRow>> {
  const rows = await createStockRepository(db).findProductsForCheckout([...new Set(productIds)]);
  return new Map(rows.map((r) => [r.id, r]));
}

function byProductId<T extends { productId: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareIds(a.productId, b.productId));
}

/**
 * Takes the stock of a new payment and records its reservations; 409 OUT_OF_STOCK ('Only N left
 * of <title>') when another shopper got there first. Throwing rolls the caller's transaction back.
 */
export async function reserveStock(
  db: Db,
  paymentId: string,
  items: readonly StockRequest[],
  expiresAt: Date,
): Promise<StockChange> {
  const repo = createStockRepository(db);
  const sorted = byProductId(stockRequestsFor(items));
  const taken = new Set(await repo.takeStockAndReserve(paymentId, sorted, expiresAt));
  // The first short product in id order is the one named (as when they were taken one by one).
  const short = sorted.find((item) => !taken.has(item.productId));
  if (short) {
    const available = (await repo.findQuantity(short.productId)) ?? 0;
    throw new AppError('OUT_OF_STOCK', outOfStockMessage(short.title, available));
  }
  return { productIds: items.map((i) => i.productId) };
}

/**
 * Returns the stock the payments still hold (one or many, e.g. a sweeper batch): reservations
 * already released or consumed are left alone. Products are credited once each, in id order.
 */
export async function releaseReservations(
  db: Db,
  paymentIds: string | readonly string[],
  at: Date,
): Promise<StockChange> {
  const repo = createStockRepository(db);
  const ids = typeof paymentIds === 'string' ? [paymentIds] : [...paymentIds];
  const held = await repo.lockHeldReservations(ids);
  const units = unitsByProduct(held);
  await repo.releaseHeld(
    [...units].map(([productId, quantity]) => ({ productId, quantity })),
    held.map((r) => r.id),
    at,
  );
  return { productIds: [...units.keys()] };
}

/** Units held per product, in product id order. */
function unitsByProduct(rows: ReadonlyArray<{ product_id: string; quantity: number }>): Map<string, number> {
  const requests = stockRequestsFor(
    rows.map((r) => ({ productId: r.product_id, title: '', quantity: r.quantity })),
  );
  return new Map(byProductId(requests).map((r) => [r.productId, r.quantity]));
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Settles a confirmed payment's stock for its order, all or nothing. Normally its reservations
 * still hold every unit and are simply consumed. When they do not (released by the sweeper or an
 * expiry event before the confirmation arrived, or cut short by a deleted product), the missing
 * units are taken again with the same conditional decrement as a checkout. If any product is
 * short, nothing is taken, whatever the payment still held goes back, and the short products are
 * returned: the caller records a failed order marked for refund.
 *
 * One pass over the products in id order (and a second, in the same order, to undo on failure),
 * so this never deadlocks with a checkout or a sweep.
 */
export async function settleStockForOrder(
  db: Db,
  paymentId: string,
  items: readonly StockRequest[],
  at: Date,
): Promise<{ ok: true; change: StockChange } | { ok: false; short: StockRequest[]; change: StockChange }> {
  const repo = createStockRepository(db);
  const held = await repo.lockHeldReservations([paymentId]);
  const heldUnits = unitsByProduct(held);
  const needed = new Map(items.map((i) => [i.productId, i]));
  const productIds = [...new Set([...heldUnits.keys(), ...needed.keys()])].sort(compareIds);
  const neededUnits = (id: string) => needed.get(id)?.quantity ?? 0;

  // Stock change per product on success: + what is held beyond the need, - what is missing.
  const applied = new Map<string, number>();
  let failed = false;
  for (const id of productIds) {
    const delta = (heldUnits.get(id) ?? 0) - neededUnits(id);
    if (delta > 0) await repo.incrementStock(id, delta);
    if (delta < 0 && (await repo.decrementStock(id, -delta)) === null) {
      failed = true;
      break;
    }
    if (delta !== 0) applied.set(id, delta);
  }

  if (!failed) {
    await repo.markConsumed(
      held.map((r) => r.id),
      at,
    );
    const retaken = items.filter((i) => (heldUnits.get(i.productId) ?? 0) < i.quantity);
    await repo.insertReservations(
      retaken.map((i) => ({
        paymentId,
        productId: i.productId,
        quantity: i.quantity - (heldUnits.get(i.productId) ?? 0),
        expiresAt: at,
        consumedAt: at,
      })),
    );
    return { ok: true, change: { productIds: [...applied.keys()] } };
  }

  // Undo: every product ends with + what the payment held (its reservations are released).
  const changed: string[] = [];
  for (const id of productIds) {
    const back = (heldUnits.get(id) ?? 0) - (applied.get(id) ?? 0);
    if (back > 0) {
      await repo.incrementStock(id, back);
      changed.push(id);
    }
  }
  await repo.markReleased(
    held.map((r) => r.id),
    at,
  );
  const short: StockRequest[] = [];
  for (const item of items) {
    const missing = item.quantity - (heldUnits.get(item.productId) ?? 0);
    if (missing > 0 && ((await repo.findQuantity(item.productId)) ?? 0) < missing) short.push(item);
  }
  return { ok: false, short, change: { productIds: changed } };
}
