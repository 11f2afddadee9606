import { sql } from 'kysely';
import type { Db } from '#server/db/client';

/**
 * Who a checkout belongs to, for the limits on what one client may hold: the client (an IPv4
 * address, an IPv6 /64), its network (an IPv6 /56; null where it is the client itself), the
 * signed-in user and the browser's cart.
 */
export interface HolderKeys {
  clientKey: string | null;
  clientNetwork: string | null;
  userId: string | null;
  cartId: string | null;
}

/** A product locked for a checkout, with the units unpaid checkouts hold of it. */
export interface ProductHolds {
  id: string;
  /** Buyable now (held units are not in it). */
  quantity: number;
  /** Held by unpaid checkouts: all of them, and the anonymous ones (no signed-in user). */
  held: number;
  anonymousHeld: number;
}

/** What open checkouts hold: per holder (the limits on one client) and per product (the anonymous share). */
export function createPaymentHoldsRepository(db: Db) {
  return {
    /**
     * Open checkouts (pending, not yet expired) and the units they hold, per holder key given:
     * the client, its network, the signed-in user, the browser's cart.
     */
    async countOpenHolds(
      keys: HolderKeys,
      now: Date,
    ): Promise<Array<{ key: keyof HolderKeys; checkouts: number; units: number }>> {
      const column = {
        clientKey: 'client_key',
        clientNetwork: 'client_network',
        userId: 'user_id',
        cartId: 'cart_id',
      } as const;
      // One round trip for every key (each part reads its own partial index), in the keys' order.
      const parts = (['clientKey', 'clientNetwork', 'userId', 'cartId'] as const).flatMap((key, ord) => {
        const value = keys[key];
        if (value === null) return [];
        return [
          sql`
          select ${ord}::int as ord, ${key}::text as key, count(distinct p.id) as checkouts,
                 coalesce(sum(r.quantity) filter (where r.released_at is null and r.consumed_at is null), 0) as units
          from payments p
          left join stock_reservations r on r.payment_id = p.id
          where ${sql.ref(`p.${column[key]}`)} = ${value}
            and p.status = 'pending'
            and p.expires_at > ${now}`,
        ];
      });
      if (parts.length === 0) return [];
      const result = await sql<{
        key: keyof HolderKeys;
        checkouts: number | string;
        units: number | string | null;
      }>`
        select key, checkouts, units from (${sql.join(parts, sql` union all `)}) holds order by ord
      `.execute(db);
      return result.rows.map((row) => ({
        key: row.key,
        checkouts: Number(row.checkouts),
        units: Number(row.units ?? 0),
      }));
    },

    /**
     * Locks the products' rows for the caller's transaction (in id order, as a stock take does) and
     * answers each one's buyable units and what unpaid checkouts hold of it, in all and anonymous.
     * Two statements: the sums are read after the locks are granted, so they include every
     * checkout of these products that committed before (READ COMMITTED: a new snapshot each).
     */
    async lockProductHolds(productIds: readonly string[]): Promise<ProductHolds[]> {
      if (productIds.length === 0) return [];
      const ids = [...new Set(productIds)];
      const locked = await db
        .selectFrom('products')
        .select(['id', 'quantity'])
        .where('id', 'in', ids)
        .orderBy('id')
        .forUpdate()
        .execute();
      const { rows } = await sql<{
        product_id: string;
        held: string | number;
        anonymous_held: string | number;
      }>`
        select r.product_id::text as product_id, sum(r.quantity) as held,
               coalesce(sum(r.quantity) filter (where p.user_id is null), 0) as anonymous_held
        from stock_reservations r
        join payments p on p.id = r.payment_id
        where r.product_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})
          and r.released_at is null and r.consumed_at is null
        group by r.product_id
      `.execute(db);
      const holds = new Map(rows.map((r) => [r.product_id, r]));
      return locked.map((p) => ({
        id: p.id,
        quantity: p.quantity,
        held: Number(holds.get(p.id)?.held ?? 0),
        anonymousHeld: Number(holds.get(p.id)?.anonymous_held ?? 0),
      }));
    },
  };
}

export type PaymentHoldsRepository = ReturnType<typeof createPaymentHoldsRepository>;
