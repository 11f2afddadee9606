import type { Db, Tx } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import { createStockRepository, type CheckoutProductRow } from './stock.repository';

/**
 * Stock reservations. A checkout takes its units from `products.quantity` at once (a conditional
 * decrement that can never go below zero), and from the line's size in `products.size_stock` when
 * the product tracks its sizes apart ("Stock per size"), and records them in stock_reservations
 * with their size; the units come
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
  /** The lines' size; null for a product without sizes, or a request for all of a product's sizes. */
  size?: string | null | undefined;
}

export interface StockChange {
  productIds: string[];
}

/**
 * What a shopper is told when a product has fewer units than asked for; `size` when the product
 * tracks its sizes apart and that size is short ('Only 1 left of Align Legging in XS').
 */
export function outOfStockMessage(title: string, available: number, size?: string | null): string {
  const what = size ? `${title} in ${size}` : title;
  return available <= 0 ? `${what} is sold out` : `Only ${available} left of ${what}`;
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

/**
 * The units each product needs per size for a set of lines (several colours of one size add up),
 * in the order they first appear: what a checkout reserves, since a product may track its sizes
 * apart.
 */
export function stockRequestsBySize(
  lines: ReadonlyArray<{
    productId: string;
    title: string;
    quantity: number;
    size?: string | null | undefined;
  }>,
): Array<StockRequest & { size: string | null }> {
  const byKey = new Map<string, StockRequest & { size: string | null }>();
  for (const { productId, title, quantity, size } of lines) {
    const key = `${productId}|${size ?? ''}`;
    const entry = byKey.get(key);
    if (entry) entry.quantity += quantity;
    else byKey.set(key, { productId, title, quantity, size: size ?? null });
  }
  return [...byKey.values()];
}

export async function loadCheckoutProducts(
  db: Db,
  productIds: readonly string[],
): Promise<Map<string, CheckoutProductRow>> {
  const rows = await createStockRepository(db).findProductsForCheckout([...new Set(productIds)]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Product id order, then size: the order every stock change takes products' rows in. */
function byProductId<T extends { productId: string; size?: string | null | undefined }>(
  items: readonly T[],
): T[] {
  return [...items].sort(
    (a, b) => compareIds(a.productId, b.productId) || compareIds(a.size ?? '', b.size ?? ''),
  );
}

/**
 * Takes the stock of a new payment and records its reservations; 409 OUT_OF_STOCK ('Only N left
 * of <title>') when another shopper got there first. Throwing rolls the caller's transaction back.
 */
export async function reserveStock(
  db: Tx,
  paymentId: string,
  items: readonly StockRequest[],
  expiresAt: Date,
): Promise<StockChange> {
  const repo = createStockRepository(db);
  const sorted = byProductId(stockRequestsBySize(items));
  const taken = new Set(await repo.takeStockAndReserve(paymentId, sorted, expiresAt));
  // The first short product in id order is the one named (as when they were taken one by one):
  // its first short size when it tracks its sizes apart, else the product as a whole.
  const shortId = sorted.find((item) => !taken.has(item.productId))?.productId;
  if (shortId !== undefined) {
    const requests = sorted.filter((item) => item.productId === shortId);
    const product = (await loadCheckoutProducts(db, [shortId])).get(shortId);
    const title = requests[0]!.title;
    if (product?.size_stock) {
      const short = requests.find((r) => (product.size_stock?.[r.size ?? ''] ?? 0) < r.quantity);
      if (short) {
        const available = product.size_stock[short.size ?? ''] ?? 0;
        throw new AppError('OUT_OF_STOCK', outOfStockMessage(title, available, short.size));
      }
    }
    throw new AppError('OUT_OF_STOCK', outOfStockMessage(title, product?.quantity ?? 0));
  }
  return { productIds: items.map((i) => i.productId) };
}

/**
 * Returns the stock the payments still hold (one or many, e.g. a sweeper batch): reservations
 * already released or consumed are left alone. Products are credited once each, in id order.
 */
export async function releaseReservations(
  db: Tx,
  paymentIds: string | readonly string[],
  at: Date,
): Promise<StockChange> {
  const repo = createStockRepository(db);
  const ids = typeof paymentIds === 'string' ? [paymentIds] : [...paymentIds];
  const held = await repo.lockHeldReservations(ids);
  const units = heldBySize(held);
  await repo.releaseHeld(
    units,
    held.map((r) => r.id),
    at,
  );
  return { productIds: [...new Set(units.map((u) => u.productId))] };
}

/** Units held per product and size, in product id order. */
function heldBySize(
  rows: ReadonlyArray<{ product_id: string; size: string | null; quantity: number }>,
): Array<{ productId: string; size: string | null; quantity: number }> {
  return byProductId(
    stockRequestsBySize(
      rows.map((r) => ({ productId: r.product_id, title: '', quantity: r.quantity, size: r.size })),
    ),
  ).map(({ productId, size, quantity }) => ({ productId, size, quantity }));
}

const unitKey = (productId: string, size: string | null | undefined) => `${productId}|${size ?? ''}`;

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Settles a confirmed payment's stock for its order, all or nothing. Normally its reservations
 * still hold every unit and are simply consumed. When they do not (released by the sweeper or an
 * expiry event before the confirmation arrived, or cut short by a deleted product), the missing
 * units are taken again with the same conditional decrement as a checkout (per size when the
 * product tracks its sizes apart). If any is short, nothing is taken, whatever the payment still
 * held goes back, and the short lines are returned: the caller records a failed order marked for
 * refund.
 *
 * One pass over the products in id order (and a second, in the same order, to undo on failure),
 * so this never deadlocks with a checkout or a sweep.
 */
export async function settleStockForOrder(
  db: Tx,
  paymentId: string,
  items: readonly StockRequest[],
  at: Date,
): Promise<{ ok: true; change: StockChange } | { ok: false; short: StockRequest[]; change: StockChange }> {
  const repo = createStockRepository(db);
  const held = await repo.lockHeldReservations([paymentId]);
  const heldUnits = new Map(heldBySize(held).map((u) => [unitKey(u.productId, u.size), u]));
  const needed = new Map(stockRequestsBySize(items).map((i) => [unitKey(i.productId, i.size), i]));
  const keys = byProductId(
    [
      ...new Map([...heldUnits.values(), ...needed.values()].map((u) => [unitKey(u.productId, u.size), u])),
    ].map(([key, u]) => ({ key, productId: u.productId, size: u.size })),
  );
  const heldOf = (key: string) => heldUnits.get(key)?.quantity ?? 0;
  const neededOf = (key: string) => needed.get(key)?.quantity ?? 0;

  // Stock change per product and size on success: + what is held beyond the need, - what is missing.
  const applied = new Map<string, number>();
  let failed = false;
  for (const { key, productId, size } of keys) {
    const delta = heldOf(key) - neededOf(key);
    if (delta > 0) await repo.adjustStock(productId, size, delta);
    if (delta < 0 && (await repo.adjustStock(productId, size, delta)) === null) {
      failed = true;
      break;
    }
    if (delta !== 0) applied.set(key, delta);
  }
  const productIdsOf = (changed: Iterable<string>) => [
    ...new Set([...changed].map((key) => key.slice(0, key.indexOf('|')))),
  ];

  if (!failed) {
    await repo.markConsumed(
      held.map((r) => r.id),
      at,
    );
    const retaken = [...needed.entries()].filter(([key, i]) => heldOf(key) < i.quantity);
    await repo.insertReservations(
      retaken.map(([key, i]) => ({
        paymentId,
        productId: i.productId,
        size: i.size,
        quantity: i.quantity - heldOf(key),
        expiresAt: at,
        consumedAt: at,
      })),
    );
    return { ok: true, change: { productIds: productIdsOf(applied.keys()) } };
  }

  // Undo: every product and size ends with + what the payment held (its reservations are released).
  const changed: string[] = [];
  for (const { key, productId, size } of keys) {
    const back = heldOf(key) - (applied.get(key) ?? 0);
    if (back > 0) {
      await repo.adjustStock(productId, size, back);
      changed.push(key);
    }
  }
  await repo.markReleased(
    held.map((r) => r.id),
    at,
  );
  const short: StockRequest[] = [];
  for (const [key, item] of needed) {
    const missing = item.quantity - heldOf(key);
    if (missing > 0 && ((await repo.findAvailable(item.productId, item.size)) ?? 0) < missing)
      short.push(item);
  }
  return { ok: false, short, change: { productIds: productIdsOf(changed) } };
}
