/**
 * Kysely types of the tables db/migrations/0003-0006_admin_*.sql add, merged into the table types
 * of db/schema.ts (module augmentation: the schema file belongs to the
 * foundation; fold these into it when it is next edited).
 */
import type { ColumnType } from 'kysely';

/** bigint sums come back as numbers when safe (see db/client.ts), as strings otherwise. */
type BigSum = ColumnType<number | string, number | bigint | string, number | bigint | string>;

declare module '../../db/schema' {
  interface AdminDailyStatsTable {
    day: ColumnType<Date | string, string, string>;
    payment_method: string;
    orders: number;
    amount_cents: BigSum;
    revenue_cents: BigSum;
  }

  interface AdminCategoryStatsTable {
    category: string;
    quantity: BigSum;
    revenue_cents: BigSum;
  }

  interface AdminCustomerStatsTable {
    email: string;
    first_name: string;
    last_name: string;
    orders: number;
    spent_cents: BigSum;
    first_order_at: ColumnType<Date, Date | string, Date | string>;
    last_order_at: ColumnType<Date, Date | string, Date | string>;
    /** Tie-break for orders placed in the same instant (kept by the triggers of migration 0005). */
    last_order_id: string | null;
  }

  interface AdminOrderSearchTable {
    order_id: string;
    created_at: ColumnType<Date, Date | string, Date | string>;
    search_text: string;
  }

  interface AdminOrderStatusStatsTable {
    status: string;
    day: ColumnType<Date | string, string, string>;
    payment_method: string;
    orders: number;
  }

  interface DB {
    admin_order_status_stats: AdminOrderStatusStatsTable;
    admin_order_search: AdminOrderSearchTable;
    admin_daily_stats: AdminDailyStatsTable;
    admin_category_stats: AdminCategoryStatsTable;
    admin_customer_stats: AdminCustomerStatsTable;
  }
}

export {};
