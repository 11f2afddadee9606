import { z } from 'zod';
import { AuditEntrySchema } from './admin-audit';
import { OrderStatusSchema } from './admin-orders';
import { SupportTimesSchema } from './support-threads';

/** Admin dashboard: stats with trends, daily sales, recent orders and audit entries. Routes: see admin.ts. */

export const DASHBOARD_RECENT_ORDERS = 5;
export const DASHBOARD_RECENT_AUDIT = 10;
export const DASHBOARD_SALES_DAYS = 7;

/**
 * A stat card: the all-time value and the week-over-week trend in percent (1 decimal): the last
 * 7 UTC days (today included) against the 7 before; null when the earlier week had none.
 */
export const DashboardStatSchema = z.object({ value: z.number(), trend: z.number().nullable() });
export type DashboardStat = z.infer<typeof DashboardStatSchema>;

export const DailySalesSchema = z.object({
  /** UTC day, YYYY-MM-DD. Every day of the range is present; days without sales are zero. */
  date: z.string(),
  /** Sum of price x quantity over the day's order items (failed orders excluded). */
  revenueCents: z.int(),
  /** Orders placed that day (all statuses). */
  orders: z.int(),
});
export type DailySales = z.infer<typeof DailySalesSchema>;

export const RecentOrderSchema = z.object({
  id: z.string(),
  shortId: z.string(),
  createdAt: z.string(),
  amountCents: z.int(),
  status: OrderStatusSchema,
});
export type RecentOrder = z.infer<typeof RecentOrderSchema>;

/** Week-over-week change in percent with 1 decimal; null without a baseline. */
export function trendPercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

export const AdminDashboardSchema = z.object({
  totals: z.object({
    orders: DashboardStatSchema,
    products: DashboardStatSchema,
    /** Distinct shipping emails; trend compares customers whose first order fell in each week. */
    customers: DashboardStatSchema,
    /** Sum of price x quantity over all order items, failed orders excluded. */
    revenueCents: DashboardStatSchema,
  }),
  /** The last 7 UTC days, oldest first, today last. */
  salesOverview: z.array(DailySalesSchema),
  /** The 5 newest orders. */
  recentOrders: z.array(RecentOrderSchema),
  /** The 10 newest audit entries. */
  recentAudit: z.array(AuditEntrySchema),
  /** Average response and resolution times of support messages (null until one has them). */
  support: SupportTimesSchema,
  generatedAt: z.string(),
});
export type AdminDashboard = z.infer<typeof AdminDashboardSchema>;
