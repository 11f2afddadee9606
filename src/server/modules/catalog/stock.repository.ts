import { sql } from 'kysely';
import type { Db } from '#server/db/client';

/**
 * Stock and its reservations. Every function takes the Kysely instance to run on, so callers pass
 * their transaction: a reservation, a payment and its events commit together or not at all.
 */

export interface CheckoutProductRow {
  id: string;
  title: string;
  price_cents: number;
  images: string[];
  sizes: string[];
  colors: string[];
  quantity: number;
  category: string;
}

export interface NewReservationRow {
  paymentId: string;
  productId: string;
  quantity: number;
  expiresAt: Date;
  consumedAt?: Date;
}

export interface HeldReservationRow {
  id: string;
  product_id: string;
  quantity: number;
}

export function createStockRepository(db: Db) {
  return {
    async findProductsForCheckout(ids: readonly string[]): Promise<CheckoutProductRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('products')
        .select(['id', 'title', 'price_cents', 'images', 'sizes', 'colors', 'quantity', 'category'])
        .where('id', 'in', [...ids])
        .execute();
    },

    async findQuantity(productId: string): Promise<number | null> {
      const row = await db
        .selectFrom('products')
        .select('quantity')
        .where('id', '=', productId)
        .executeTakeFirst();
      return row?.quantity ?? null;
    },

    /**
     * Takes `quantity` from stock only if that much is there, in one statement (the row lock it
     * takes makes concurrent takers wait and re-check); the new quantity, or null when there was
     * not enough. The table's CHECK (quantity >= 0) backs this up.
     */
    async decrementStock(productId: string, quantity: number): Promise<number | null> {
      const row = await db
        .updateTable('products')
        .set({ quantity: sql<number>`quantity - ${quantity}` })
        .where('id', '=', productId)
        .where('quantity', '>=', quantity)
        .returning('quantity')
        .executeTakeFirst();
      return row?.quantity ?? null;
    },

    /** Puts stock back; null when the product no longer exists. */
    async incrementStock(productId: string, quantity: number): Promise<number | null> {
      const row = await db
        .updateTable('products')
        .set({ quantity: sql<number>`quantity + ${quantity}` })
        .where('id', '=', productId)
        .returning('quantity')
        .executeTakeFirst();
      return row?.quantity ?? null;
    },

    async insertReservations(rows: readonly NewReservationRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('stock_reservations')
        .values(
          rows.map((r) => ({
            payment_id: r.paymentId,
            product_id: r.productId,
            quantity: r.quantity,
            expires_at: r.expiresAt,
            consumed_at: r.consumedAt ?? null,
          })),
        )
        .execute();
    },

    /** The payments' reservations still holding stock, locked until the transaction ends. */
    async lockHeldReservations(paymentIds: readonly string[]): Promise<HeldReservationRow[]> {
      if (paymentIds.length === 0) return [];
      return db
        .selectFrom('stock_reservations')
        .select(['id', 'product_id', 'quantity'])
        .where('payment_id', 'in', [...paymentIds])
        .where('released_at', 'is', null)
        .where('consumed_at', 'is', null)
        .orderBy('product_id')
        .forUpdate()
        .execute();
    },

    async markReleased(ids: readonly string[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('stock_reservations')
        .set({ released_at: at })
        .where('id', 'in', [...ids])
        .execute();
    },

    async markConsumed(ids: readonly string[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('stock_reservations')
        .set({ consumed_at: at })
        .where('id', 'in', [...ids])
        .execute();
    },
  };
}
