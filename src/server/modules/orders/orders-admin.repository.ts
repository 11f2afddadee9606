import { sql, type Selectable } from 'kysely';
import type { Db } from '#server/db/client';
import type { OrderStatus } from '#common/schemas/admin-orders';
import type { OrderItemsTable, OrdersTable } from '#server/db/schema';
import { isWholeEmail, likeContains, toNumber } from '#server/db/sql-helpers';

/**
 * The admin's order queries: a searchable, paginated list (newest first) with each page's items,
 * one order by id, status/tracking updates and deletion (order_items cascade; the admin summary
 * tables follow through their triggers).
 */

export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;

export interface OrderListFilter {
  search: string;
  status: OrderStatus | undefined;
  limit: number;
  offset: number;
}

/** How many of the newest orders a search filters before it collects every match (see searchPage). */
const SEARCH_WINDOW = 10_000;

export function createOrdersAdminRepository(db: Db, options: { searchWindow?: number } = {}) {
  const searchWindow = options.searchWindow ?? SEARCH_WINDOW;
  /**
   * Ids of one page of orders whose search text matches, newest first, in two bounded steps:
   * the newest SEARCH_WINDOW orders (default) are filtered first (a common term fills the page there);
   * only when they hold too few matches are all matches collected through the trigram index and
   * sorted (a rare term has few). Neither step depends on the planner guessing how common the
   * term is, so neither degrades into a walk over every order.
   */
  async function searchPage(pattern: string, limit: number, offset: number): Promise<string[]> {
    const needed = offset + limit;
    if (needed <= searchWindow) {
      const recent = await db
        .selectFrom(
          db
            .selectFrom('admin_order_search')
            .select(['order_id', 'created_at', 'search_text'])
            .orderBy('created_at', 'desc')
            .orderBy('order_id', 'desc')
            .limit(searchWindow)
            .as('w'),
        )
        .select('w.order_id')
        .where('w.search_text', 'like', pattern)
        .orderBy('w.created_at', 'desc')
        .orderBy('w.order_id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      if (recent.length === limit) return recent.map((r) => r.order_id);
    }
    const result = await sql<{ order_id: string }>`
      with matches as materialized (
        select order_id, created_at from admin_order_search where search_text like ${pattern}
      )
      select order_id from matches order by created_at desc, order_id desc limit ${limit} offset ${offset}`.execute(
      db,
    );
    return result.rows.map((r) => r.order_id);
  }

  async function hasOrdersOf(email: string): Promise<boolean> {
    const row = await db
      .selectFrom('orders')
      .select('id')
      .where('shipping_email', '=', email)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  return {
    /** The account whose confirmed email is `email` (its email-matched orders are its own), if any. */
    async findVerifiedUserIdByEmail(email: string): Promise<string | null> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email.toLowerCase())
        .where('email_verified', '=', true)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /**
     * One page, newest first; `limit + 1` rows are read so that hasMore is exact.
     *
     * A search goes through admin_order_search (one lower-cased text per order: id, email, name,
     * item titles; trigram-indexed on PostgreSQL, see db/migrations/0004_admin_text_search.sql):
     * the page's ids come from searchPage, then only those orders are read; with a status filter
     * the planner joins the two tables. A whole email address that has orders is matched exactly
     * on the shipping email's index instead (any other term, an unknown address included, as text).
     */
    async findPage(filter: OrderListFilter): Promise<{ rows: OrderRow[]; hasMore: boolean }> {
      const email = filter.search.toLowerCase();
      const byText = filter.search !== '' && !(isWholeEmail(filter.search) && (await hasOrdersOf(email)));
      let rows: OrderRow[];
      if (byText && !filter.status) {
        const ids = await searchPage(likeContains(email), filter.limit + 1, filter.offset);
        if (ids.length === 0) return { rows: [], hasMore: false };
        const byId = new Map(
          (await db.selectFrom('orders').selectAll().where('id', 'in', ids).execute()).map((r) => [r.id, r]),
        );
        rows = ids.flatMap((id) => byId.get(id) ?? []);
      } else if (byText) {
        rows = await db
          .selectFrom('admin_order_search as s')
          .innerJoin('orders as o', 'o.id', 's.order_id')
          .where('s.search_text', 'like', likeContains(email))
          .where('o.status', '=', filter.status!)
          .selectAll('o')
          .orderBy('s.created_at', 'desc')
          .orderBy('s.order_id', 'desc')
          .limit(filter.limit + 1)
          .offset(filter.offset)
          .execute();
      } else {
        let query = db.selectFrom('orders as o');
        if (filter.search) query = query.where('o.shipping_email', '=', email);
        if (filter.status) query = query.where('o.status', '=', filter.status);
        rows = await query
          .selectAll('o')
          .orderBy('o.created_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(filter.limit + 1)
          .offset(filter.offset)
          .execute();
      }
      return { rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit };
    },

    /**
     * Every order, from admin_daily_stats (kept exact by triggers in the writing transactions):
     * a few hundred rows instead of an index walk over every order.
     */
    async countAll(): Promise<number> {
      const row = await db
        .selectFrom('admin_daily_stats')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('orders'), eb.lit(0)).as('count'))
        .executeTakeFirstOrThrow();
      return toNumber(row.count);
    },

    /** Orders of one status, from admin_order_status_stats (kept exact by triggers). */
    async countByStatus(status: OrderStatus): Promise<number> {
      const row = await db
        .selectFrom('admin_order_status_stats')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('orders'), eb.lit(0)).as('count'))
        .where('status', '=', status)
        .executeTakeFirstOrThrow();
      return toNumber(row.count);
    },

    async findItems(orderIds: readonly string[]): Promise<OrderItemRow[]> {
      if (orderIds.length === 0) return [];
      return db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', 'in', [...orderIds])
        .orderBy('id')
        .execute();
    },

    async findById(id: string): Promise<OrderRow | undefined> {
      return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The order, locked until the transaction ends. */
    async lockById(id: string): Promise<OrderRow | undefined> {
      return db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async update(
      id: string,
      changes: { status?: OrderStatus; trackingNumber?: string },
      updatedAt: Date,
    ): Promise<OrderRow> {
      return db
        .updateTable('orders')
        .set({
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.trackingNumber !== undefined ? { tracking_number: changes.trackingNumber } : {}),
          updated_at: updatedAt,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('orders').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
