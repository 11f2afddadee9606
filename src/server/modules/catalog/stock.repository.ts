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

    /**
     * A checkout's whole stock take in one statement: each product's units are taken only if that
     * many are there, and the payment's reservations are written for what was taken. The products'
     * rows are locked first in id order (ORDER BY is applied before FOR UPDATE), so two checkouts
     * of the same products never deadlock. Answers the ids taken: a product missing from the
     * answer was short, and the caller must roll its transaction back (the reservations written
     * for the others go with it). The table's CHECK (quantity >= 0) backs this up.
     */
    async takeStockAndReserve(
      paymentId: string,
      items: ReadonlyArray<{ productId: string; quantity: number }>,
      expiresAt: Date,
    ): Promise<string[]> {
      if (items.length === 0) return [];
      const wanted = sql.join(items.map((i) => sql`(${i.productId}::uuid, ${i.quantity}::int)`));
      const { rows } = await sql<{ id: string }>`
        with wanted (id, quantity) as (values ${wanted}),
        locked as materialized (
          select p.id from products p where p.id in (select id from wanted) order by p.id for update
        ),
        taken as (
          update products p set quantity = p.quantity - w.quantity
          from wanted w
          where p.id = w.id and p.quantity >= w.quantity and p.id in (select id from locked)
          returning p.id
        ),
        reserved as (
          insert into stock_reservations (payment_id, product_id, quantity, expires_at)
          select ${paymentId}::uuid, w.id, w.quantity, ${expiresAt}::timestamptz
          from taken t join wanted w on w.id = t.id
        )
        select id::text as id from taken
      `.execute(db);
      return rows.map((r) => r.id);
    },

    /**
     * Gives the units of locked reservations back and marks them released, in one statement;
     * products are locked in id order as in takeStockAndReserve. A product deleted meanwhile is
     * skipped (its reservations went with it).
     */
    async releaseHeld(
      units: ReadonlyArray<{ productId: string; quantity: number }>,
      reservationIds: readonly string[],
      at: Date,
    ): Promise<void> {
      if (reservationIds.length === 0) return;
      const released = sql.join(reservationIds.map((id) => sql`${id}::uuid`));
      if (units.length === 0) {
        await sql`update stock_reservations set released_at = ${at}::timestamptz where id in (${released})`.execute(
          db,
        );
        return;
      }
      const back = sql.join(units.map((u) => sql`(${u.productId}::uuid, ${u.quantity}::int)`));
      await sql`
        with back (id, quantity) as (values ${back}),
        locked as materialized (
          select p.id from products p where p.id in (select id from back) order by p.id for update
        ),
        credited as (
          update products p set quantity = p.quantity + b.quantity
          from back b
          where p.id = b.id and p.id in (select id from locked)
          returning p.id
        ),
        released as (
          update stock_reservations set released_at = ${at}::timestamptz where id in (${released})
          returning id
        )
        select (select count(*) from credited) as credited, (select count(*) from released) as released
      `.execute(db);
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
