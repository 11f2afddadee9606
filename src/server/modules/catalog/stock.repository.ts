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
  /** Buyable units per size when the sizes are tracked apart; null: one quantity for all sizes. */
  size_stock: Record<string, number> | null;
  category: string;
}

/** Units of one product, for one size of it when the line has a size (null: no size). */
export interface SizedUnits {
  productId: string;
  size: string | null;
  quantity: number;
}

export interface NewReservationRow {
  paymentId: string;
  productId: string;
  size: string | null;
  quantity: number;
  expiresAt: Date;
  consumedAt?: Date;
}

export interface HeldReservationRow {
  id: string;
  product_id: string;
  size: string | null;
  quantity: number;
}

/** (id, size, quantity) rows for a VALUES list. */
function unitValues(items: readonly SizedUnits[]) {
  return sql.join(items.map((i) => sql`(${i.productId}::uuid, ${i.size}::text, ${i.quantity}::int)`));
}

/**
 * The new size_stock of product `p` after adding the units of `units` (a CTE of (id, size,
 * quantity)) to its tracked sizes, negative units taking; null for a product not tracked per size.
 * Units for a size the product does not track are left out.
 */
function sizeStockPlus(units: ReturnType<typeof sql.raw>, sign: '+' | '-') {
  const op = sql.raw(sign);
  return sql`case when p.size_stock is null then null else coalesce((
    select jsonb_object_agg(e.key, e.value::int ${op} coalesce(
      (select sum(u.quantity) from ${units} u where u.id = p.id and u.size = e.key), 0))
    from jsonb_each_text(p.size_stock) e), '{}'::jsonb) end`;
}

export function createStockRepository(db: Db) {
  return {
    async findProductsForCheckout(ids: readonly string[]): Promise<CheckoutProductRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('products')
        .select([
          'id',
          'title',
          'price_cents',
          'images',
          'sizes',
          'colors',
          'quantity',
          'size_stock',
          'category',
        ])
        .where('id', 'in', [...ids])
        .execute();
    },

    /**
     * Units a shopper can buy of the product, in the given size when its sizes are tracked apart
     * (0 for a size it does not track); null when the product no longer exists.
     */
    async findAvailable(productId: string, size: string | null): Promise<number | null> {
      const row = await db
        .selectFrom('products')
        .select(['quantity', 'size_stock'])
        .where('id', '=', productId)
        .executeTakeFirst();
      if (!row) return null;
      if (!row.size_stock) return row.quantity;
      return size === null ? 0 : (row.size_stock[size] ?? 0);
    },

    /**
     * Adds `delta` units (negative: takes them) to the product, and to its size when its sizes
     * are tracked apart, only if no count goes below zero, in one statement (the row lock it takes
     * makes concurrent takers wait and re-check); the product's new quantity, or null when there
     * was not enough, the size is not tracked or the product is gone. The table's CHECKs
     * (quantity >= 0, size_stock summing to it) back this up.
     */
    async adjustStock(productId: string, size: string | null, delta: number): Promise<number | null> {
      const { rows } = await sql<{ quantity: number }>`
        update products p
           set quantity = p.quantity + ${delta}::int,
               size_stock = case when p.size_stock is null then null
                 else jsonb_set(p.size_stock, array[${size}::text],
                                to_jsonb((p.size_stock ->> ${size}::text)::int + ${delta}::int)) end
         where p.id = ${productId}::uuid
           and p.quantity + ${delta}::int >= 0
           and (p.size_stock is null or (p.size_stock ->> ${size}::text)::int + ${delta}::int >= 0)
        returning p.quantity`.execute(db);
      return rows[0]?.quantity ?? null;
    },

    /**
     * A checkout's whole stock take in one statement: each product's units are taken only if that
     * many are there (and, for a product whose sizes are tracked apart, that many of each size
     * asked for), and the payment's reservations are written for what was taken. The products'
     * rows are locked first in id order (ORDER BY is applied before FOR UPDATE), so two checkouts
     * of the same products never deadlock; the lock covers all of a product's sizes. Answers the
     * ids taken: a product missing from the answer was short, and the caller must roll its
     * transaction back (the reservations written for the others go with it). The table's CHECKs
     * (quantity >= 0, size_stock whole, >= 0 and summing to quantity) back this up.
     */
    async takeStockAndReserve(
      paymentId: string,
      items: readonly SizedUnits[],
      expiresAt: Date,
    ): Promise<string[]> {
      if (items.length === 0) return [];
      const { rows } = await sql<{ id: string }>`
        with wanted (id, size, quantity) as (values ${unitValues(items)}),
        locked as materialized (
          select p.id, p.size_stock from products p
           where p.id in (select id from wanted) order by p.id for update
        ),
        per_product as (select id, sum(quantity)::int as quantity from wanted group by id),
        sizes_fit as (
          select l.id from locked l
           where l.size_stock is null or not exists (
             select 1 from wanted w
              where w.id = l.id and coalesce((l.size_stock ->> w.size)::int, 0) < w.quantity)
        ),
        taken as (
          update products p set quantity = p.quantity - pp.quantity,
                                size_stock = ${sizeStockPlus(sql.raw('wanted'), '-')}
          from per_product pp
          where p.id = pp.id and p.quantity >= pp.quantity and p.id in (select id from sizes_fit)
          returning p.id
        ),
        reserved as (
          insert into stock_reservations (payment_id, product_id, size, quantity, expires_at)
          select ${paymentId}::uuid, w.id, w.size, w.quantity, ${expiresAt}::timestamptz
          from taken t join wanted w on w.id = t.id
        )
        select id::text as id from taken
      `.execute(db);
      return rows.map((r) => r.id);
    },

    /**
     * Gives the units of locked reservations back and marks them released, in one statement;
     * products are locked in id order as in takeStockAndReserve. Units held for a size go back to
     * that size when the product tracks its sizes apart (units for a size it no longer tracks are
     * not counted back); a product deleted meanwhile is skipped (its reservations went with it).
     */
    async releaseHeld(
      units: readonly SizedUnits[],
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
      await sql`
        with back (id, size, quantity) as (values ${unitValues(units)}),
        locked as materialized (
          select p.id from products p where p.id in (select id from back) order by p.id for update
        ),
        credited as (
          update products p
             set quantity = p.quantity + (
                   select coalesce(sum(b.quantity), 0)::int from back b
                    where b.id = p.id and (p.size_stock is null or (p.size_stock ->> b.size) is not null)),
                 size_stock = ${sizeStockPlus(sql.raw('back'), '+')}
          where p.id in (select id from locked)
          returning p.id
        ),
        released as (
          update stock_reservations set released_at = ${at}::timestamptz where id in (${released})
          returning id
        )
        select (select count(*) from credited) as credited, (select count(*) from released) as released
      `.execute(db);
    },

    async insertReservations(rows: readonly NewReservationRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('stock_reservations')
        .values(
          rows.map((r) => ({
            payment_id: r.paymentId,
            product_id: r.productId,
            size: r.size,
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
        .select(['id', 'product_id', 'size', 'quantity'])
        .where('payment_id', 'in', [...paymentIds])
        .where('released_at', 'is', null)
        .where('consumed_at', 'is', null)
        .orderBy('product_id')
        .orderBy('size')
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
