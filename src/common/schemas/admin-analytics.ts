import { z } from 'zod';
import { PaymentMethodSchema } from './checkout';
import { DailySalesSchema } from './admin-dashboard';

/** Admin analytics: 30-day sales, categories, retention segments. Routes: see admin.ts. */

export const ANALYTICS_DAYS = 30;
export const RETENTION_SEGMENTS = [
  { segment: 'one_time', label: 'One-time' },
  { segment: 'returning', label: 'Returning' },
  { segment: 'loyal', label: 'Loyal' },
] as const;
export type RetentionSegment = (typeof RETENTION_SEGMENTS)[number]['segment'];

export const AdminAnalyticsSchema = z.object({
  /** The last 30 UTC days, oldest first, zero-filled. */
  dailySales: z.array(DailySalesSchema),
  /**
   * From order_items.category, failed orders excluded; most revenue first. revenueCents: each
   * order's charge net of refunds shared among its lines by list value (db/migrations/0023).
   */
  categories: z.array(
    z.object({ category: z.string(), label: z.string(), quantity: z.int(), revenueCents: z.int() }),
  ),
  /** Per payment method: number of orders (all) and revenue: charged net of refunds (failed orders excluded). */
  paymentMethods: z.array(z.object({ method: PaymentMethodSchema, orders: z.int(), amountCents: z.int() })),
  /** Customers by number of orders: One-time = 1, Returning = 2, Loyal = 3 or more. Always three rows. */
  retention: z.array(
    z.object({ segment: z.enum(['one_time', 'returning', 'loyal']), label: z.string(), customers: z.int() }),
  ),
  generatedAt: z.string(),
});
export type AdminAnalytics = z.infer<typeof AdminAnalyticsSchema>;
