import { sql } from 'kysely';
import { shortOrderId } from '#common/format';
import type { AdminCustomer } from '#common/schemas/admin-customers';
import type { DailySales, RecentOrder } from '#common/schemas/admin-dashboard';
import type { Db } from '#server/db/client';
import type { PaymentMethod } from '#common/schemas/checkout';
import { isWholeEmail, likeContains, toNumber } from '#server/db/sql-helpers';

/**
 * The dashboard, customers and analytics queries. They read the summary tables that triggers keep
 * current (db/migrations/0003_admin_stats.sql, 0023_admin_figures_net_of_refunds.sql), so each
 * costs a handful of index reads whatever the number of orders:
 *   admin_daily_stats (day, payment_method) -> orders, amount_cents, refunded_cents, revenue_cents
 *   admin_category_stats (category)         -> quantity, revenue_cents
 *   admin_customer_stats (email)            -> orders, spent_cents, first/last order, latest name
 *
 * The money rule (0023): an order's money is what it charged (orders.amount_cents: items and
 * shipping, less the AELO discount) minus its order-scope refunds that have not failed. Revenue
 * (dashboard, daily sales, payment methods), customers' total spent and the categories (each
 * order's money shared among its lines by list value) all count that, so they add up to the same
 * total. A failed order (paid, then refunded because its stock was lost) counts as an order but
 * never as money: it adds to order counts (totals, daily orders, payment-method counts,
 * customers' order counts and retention), not to any money figure.
 *
 * Days are UTC calendar days; "today" is the database's current UTC day.
 */

export type CustomerSort = 'last_order' | 'total_spent' | 'total_orders';

/** How many customers (in the chosen order) a search filters before it collects every match. */
const CUSTOMER_WINDOW = 5_000;

interface CustomerRow {
  email: string;
  first_name: string;
  last_name: string;
  orders: number;
  spent_cents: number | string;
  last_order_at: Date | string;
}

const CUSTOMER_COLUMNS = sql.raw('email, first_name, last_name, orders, spent_cents, last_order_at');

/** Each sort with a unique tie-break (email), served by its admin_customer_stats index. */
const SORT_SQL: Record<CustomerSort, ReturnType<typeof sql.raw>> = {
  last_order: sql.raw('last_order_at desc, email'),
  total_spent: sql.raw('spent_cents desc, email'),
  total_orders: sql.raw('orders desc, email'),
};

export function createAdminStatsRepository(db: Db, options: { customerWindow?: number } = {}) {
  const customerWindow = options.customerWindow ?? CUSTOMER_WINDOW;
  /** One row per day of [today - (days - 1), today], zero-filled, oldest first. */
  async function dailySales(days: number): Promise<DailySales[]> {
    const result = await sql<{ day: string; orders: unknown; revenue: unknown }>`
      with bounds as (select (now() at time zone 'UTC')::date as today)
      select to_char(d.day, 'YYYY-MM-DD') as day,
             coalesce(sum(s.orders), 0) as orders,
             coalesce(sum(s.revenue_cents), 0) as revenue
        from bounds,
             lateral generate_series(bounds.today - ${days - 1}::int, bounds.today, interval '1 day') as d(day)
        left join admin_daily_stats s on s.day = d.day::date
       group by d.day
       order by d.day`.execute(db);
    return result.rows.map((r) => ({
      date: r.day,
      orders: toNumber(r.orders),
      revenueCents: toNumber(r.revenue),
    }));
  }

  return {
    dailySales,

    /** All-time totals and the two 7-day windows behind the week-over-week trends. */
    async dashboardTotals(): Promise<{
      orders: { total: number; current: number; previous: number };
      revenueCents: { total: number; current: number; previous: number };
      customers: { total: number; current: number; previous: number };
      products: { total: number; current: number; previous: number };
      /** Whether the shop (its database) was there for all of the earlier week. */
      earlierWeekCovered: boolean;
    }> {
      const result = await sql<Record<string, unknown>>`
        with bounds as (select (now() at time zone 'UTC')::date as today)
        select
          coalesce(
            (select min(applied_at) from schema_migrations) <= (today - 13)::timestamp at time zone 'UTC',
            false
          ) as earlier_week_covered,
          (select coalesce(sum(orders), 0) from admin_daily_stats) as orders_total,
          (select coalesce(sum(orders), 0) from admin_daily_stats, bounds where day > today - 7) as orders_current,
          (select coalesce(sum(orders), 0) from admin_daily_stats, bounds
             where day > today - 14 and day <= today - 7) as orders_previous,
          (select coalesce(sum(revenue_cents), 0) from admin_daily_stats) as revenue_total,
          (select coalesce(sum(revenue_cents), 0) from admin_daily_stats, bounds where day > today - 7) as revenue_current,
          (select coalesce(sum(revenue_cents), 0) from admin_daily_stats, bounds
             where day > today - 14 and day <= today - 7) as revenue_previous,
          (select count(*) from admin_customer_stats) as customers_total,
          (select count(*) from admin_customer_stats, bounds
             where first_order_at >= (today - 6)::timestamp at time zone 'UTC') as customers_current,
          (select count(*) from admin_customer_stats, bounds
             where first_order_at >= (today - 13)::timestamp at time zone 'UTC'
               and first_order_at < (today - 6)::timestamp at time zone 'UTC') as customers_previous,
          (select count(*) from products) as products_total,
          (select count(*) from products, bounds
             where created_at >= (today - 6)::timestamp at time zone 'UTC') as products_current,
          (select count(*) from products, bounds
             where created_at >= (today - 13)::timestamp at time zone 'UTC'
               and created_at < (today - 6)::timestamp at time zone 'UTC') as products_previous
        from bounds`.execute(db);
      const r = result.rows[0] ?? {};
      const triple = (name: string) => ({
        total: toNumber(r[`${name}_total`]),
        current: toNumber(r[`${name}_current`]),
        previous: toNumber(r[`${name}_previous`]),
      });
      return {
        orders: triple('orders'),
        revenueCents: triple('revenue'),
        customers: triple('customers'),
        products: triple('products'),
        earlierWeekCovered: r.earlier_week_covered === true,
      };
    },

    async recentOrders(limit: number): Promise<RecentOrder[]> {
      const rows = await db
        .selectFrom('orders')
        .select(['id', 'created_at', 'amount_cents', 'status'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        shortId: shortOrderId(r.id),
        createdAt: new Date(r.created_at).toISOString(),
        amountCents: r.amount_cents,
        status: r.status,
      }));
    },

    async categoryDistribution(): Promise<
      Array<{ category: string; quantity: number; revenueCents: number }>
    > {
      const rows = await db
        .selectFrom('admin_category_stats')
        .select(['category', 'quantity', 'revenue_cents'])
        .where((eb) => eb.or([eb('quantity', '>', 0), eb('revenue_cents', '>', 0)]))
        .orderBy('revenue_cents', 'desc')
        .orderBy('category')
        .execute();
      return rows.map((r) => ({
        category: r.category,
        quantity: toNumber(r.quantity),
        revenueCents: toNumber(r.revenue_cents),
      }));
    },

    async paymentMethods(): Promise<Array<{ method: PaymentMethod; orders: number; amountCents: number }>> {
      const rows = await db
        .selectFrom('admin_daily_stats')
        .select((eb) => [
          'payment_method',
          eb.fn.sum<string | number>('orders').as('orders'),
          eb.fn.sum<string | number>('revenue_cents').as('amount'),
        ])
        .groupBy('payment_method')
        .execute();
      return rows.map((r) => ({
        method: r.payment_method as PaymentMethod,
        orders: toNumber(r.orders),
        amountCents: toNumber(r.amount),
      }));
    },

    /** Customers with 1, 2 and 3+ orders. */
    async retention(): Promise<{ oneTime: number; returning: number; loyal: number }> {
      const row = await db
        .selectFrom('admin_customer_stats')
        .select((eb) => [
          eb.fn.countAll().filterWhere('orders', '=', 1).as('one_time'),
          eb.fn.countAll().filterWhere('orders', '=', 2).as('returning'),
          eb.fn.countAll().filterWhere('orders', '>=', 3).as('loyal'),
        ])
        .executeTakeFirstOrThrow();
      return {
        oneTime: toNumber(row.one_time),
        returning: toNumber(row.returning),
        loyal: toNumber(row.loyal),
      };
    },

    /**
     * Customers (orders grouped by shipping email), searched by email or name, one page.
     *
     * A text search runs in two bounded steps, like the orders search: the first CUSTOMER_WINDOW
     * (default) customers in the chosen order are filtered first (a common term fills the page there); only
     * when they hold too few matches are all matches collected through the trigram indexes and
     * sorted (a rare term has few). A whole email address of a customer is one key lookup.
     */
    async findCustomers(filter: {
      search: string;
      sort: CustomerSort;
      limit: number;
      offset: number;
    }): Promise<{ rows: AdminCustomer[]; total: number | null; hasMore: boolean }> {
      const email = filter.search.toLowerCase();
      const take = filter.limit + 1;
      const sortSql = SORT_SQL[filter.sort];
      let rows: CustomerRow[];
      let total: number | null = null;
      if (!filter.search) {
        const [page, count] = await Promise.all([
          sql<CustomerRow>`select ${CUSTOMER_COLUMNS} from admin_customer_stats
            order by ${sortSql} limit ${take} offset ${filter.offset}`.execute(db),
          db
            .selectFrom('admin_customer_stats')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow(),
        ]);
        rows = page.rows;
        total = toNumber(count.count);
      } else if (
        isWholeEmail(filter.search) &&
        (await db
          .selectFrom('admin_customer_stats')
          .select('email')
          .where('email', '=', email)
          .executeTakeFirst())
      ) {
        rows = (
          await sql<CustomerRow>`select ${CUSTOMER_COLUMNS} from admin_customer_stats where email = ${email}
            limit ${take} offset ${filter.offset}`.execute(db)
        ).rows;
      } else {
        const pattern = likeContains(filter.search);
        const matches = sql`(email ilike ${pattern} or (first_name || ' ' || last_name) ilike ${pattern})`;
        rows = [];
        if (filter.offset + take <= customerWindow) {
          rows = (
            await sql<CustomerRow>`select ${CUSTOMER_COLUMNS} from (
                select * from admin_customer_stats order by ${sortSql} limit ${customerWindow}
              ) w where ${matches} order by ${sortSql} limit ${take} offset ${filter.offset}`.execute(db)
          ).rows;
        }
        if (rows.length < take) {
          rows = (
            await sql<CustomerRow>`with m as materialized (select * from admin_customer_stats where ${matches})
              select ${CUSTOMER_COLUMNS} from m order by ${sortSql} limit ${take} offset ${filter.offset}`.execute(
              db,
            )
          ).rows;
        }
      }
      return {
        hasMore: rows.length > filter.limit,
        rows: rows.slice(0, filter.limit).map((r) => ({
          email: r.email,
          firstName: r.first_name,
          lastName: r.last_name,
          totalOrders: r.orders,
          totalSpentCents: toNumber(r.spent_cents),
          lastOrderAt: new Date(r.last_order_at).toISOString(),
        })),
        // Counting every match of a search costs as much as the search: a search answers null.
        total,
      };
    },

    /** Recomputes every summary from the orders (bulk loads, repairs). */
    async rebuild(): Promise<void> {
      await sql`select admin_stats_rebuild()`.execute(db);
    },
  };
}

export type AdminStatsRepository = ReturnType<typeof createAdminStatsRepository>;
