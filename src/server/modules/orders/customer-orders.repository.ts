import { sql } from 'kysely';
import type { CustomerOrdersQuery } from '#common/schemas/customer-orders';
import type { Db } from '#server/db/client';

const AGE_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;

export function createCustomerOrdersRepository(db: Db) {
  return {
    async findAccount(userId: string) {
      return db
        .selectFrom('users')
        .select(['email', 'email_verified'])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * The account's orders: its own (user_id), and those placed with its email when `email` is
     * given (the caller passes it only for a confirmed address). Newest first, at most `limit`.
     */
    async list(userId: string, email: string | null, query: CustomerOrdersQuery, now: Date, limit: number) {
      let q = db
        .selectFrom('orders as o')
        .select([
          'o.id',
          'o.status',
          'o.created_at',
          'o.payment_method',
          'o.subtotal_cents',
          'o.shipping_cents',
          'o.discount_cents',
          'o.amount_cents',
          'o.shipping_info',
          'o.tracking_number',
          'o.transaction_signature',
          'o.refund_required',
          'o.demo',
        ])
        .where((eb) =>
          email === null
            ? eb('o.user_id', '=', userId)
            : eb.or([eb('o.user_id', '=', userId), eb('o.shipping_email', '=', email)]),
        );
      if (query.status !== 'all') q = q.where('o.status', '=', query.status);
      if (query.age === 'older') {
        q = q.where('o.created_at', '<=', new Date(now.getTime() - 90 * 86_400_000));
      } else if (query.age !== 'all') {
        q = q.where('o.created_at', '>', new Date(now.getTime() - AGE_DAYS[query.age] * 86_400_000));
      }
      if (query.search) {
        const like = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) =>
          eb.or([
            eb(sql<string>`o.id::text`, 'like', like),
            eb(sql<string>`o.status`, 'like', like),
            eb.exists(
              eb
                .selectFrom('order_items as i')
                .select(sql`1`.as('one'))
                .whereRef('i.order_id', '=', 'o.id')
                .where(sql<string>`lower(i.title)`, 'like', like),
            ),
          ]),
        );
      }
      const orders = await q.orderBy('o.created_at', 'desc').orderBy('o.id').limit(limit).execute();
      if (orders.length === 0) return [];
      const items = await db
        .selectFrom('order_items')
        .select(['order_id', 'title', 'image', 'size', 'color', 'quantity', 'price_cents'])
        .where(
          'order_id',
          'in',
          orders.map((o) => o.id),
        )
        .orderBy('id')
        .execute();
      return orders.map((o) => ({ ...o, items: items.filter((i) => i.order_id === o.id) }));
    },

    /** Whether one of the account's orders (same rule as `list`) carries this tracking number. */
    async hasTrackingNumber(userId: string, email: string | null, trackingNumber: string): Promise<boolean> {
      const row = await db
        .selectFrom('orders as o')
        .select('o.id')
        .where((eb) =>
          email === null
            ? eb('o.user_id', '=', userId)
            : eb.or([eb('o.user_id', '=', userId), eb('o.shipping_email', '=', email)]),
        )
        .where(sql<string>`upper(replace(o.tracking_number, ' ', ''))`, '=', trackingNumber)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
