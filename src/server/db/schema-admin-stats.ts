import type { ColumnType } from 'kysely';
import type { BigSum } from './column-types';

/** Summary tables of db/migrations/0003-0006_admin_*.sql, kept exact by triggers (decision 004). */
export interface AdminDailyStatsTable {
  day: ColumnType<Date | string, string, string>;
  payment_method: string;
  orders: number;
  amount_cents: BigSum;
  revenue_cents: BigSum;
}

/** Products per gender, category and size ('' = every size), kept by triggers (migration 0020). */
export interface ProductCountsTable {
  gender: string;
  category: string;
  size: string;
  count: number;
}

export interface AdminCategoryStatsTable {
  category: string;
  quantity: BigSum;
  revenue_cents: BigSum;
}

export interface AdminCustomerStatsTable {
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

export interface AdminOrderSearchTable {
  order_id: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  search_text: string;
}

export interface AdminOrderStatusStatsTable {
  status: string;
  day: ColumnType<Date | string, string, string>;
  payment_method: string;
  orders: number;
}
