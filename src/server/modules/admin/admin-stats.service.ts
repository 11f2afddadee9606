import { ANALYTICS_DAYS, RETENTION_SEGMENTS, type AdminAnalytics } from '#common/schemas/admin-analytics';
import { type AdminCustomerPage, type AdminCustomersQuery } from '#common/schemas/admin-customers';
import {
  DASHBOARD_RECENT_AUDIT,
  DASHBOARD_RECENT_ORDERS,
  DASHBOARD_SALES_DAYS,
  trendPercent,
  type AdminDashboard,
} from '#common/schemas/admin-dashboard';
import { categoryLabel } from '#common/schemas/product';
import type { Db } from '#server/db/client';
import type { AuditService } from '../audit/audit.service';
import { supportTimes } from '../messages/support-threads.service';
import { createAdminStatsRepository } from './admin-stats.repository';
import { pageWindow, toPage } from '#server/lib/pagination';

/**
 * Dashboard, customers and analytics: server-side aggregates (see admin-stats.repository.ts for
 * the summary tables and the rule on failed orders). Trends compare the last 7 UTC days (today
 * included) with the 7 before; null when the earlier week had nothing to compare with, or the shop
 * (its database, by its first migration) was not there for all of it.
 */
export interface AdminStatsService {
  dashboard(): Promise<AdminDashboard>;
  analytics(): Promise<AdminAnalytics>;
  customers(query: AdminCustomersQuery): Promise<AdminCustomerPage>;
}

const PAYMENT_METHOD_ORDER = ['card', 'sol', 'aelo'] as const;

export function createAdminStatsService(deps: { db: Db; audit: AuditService }): AdminStatsService {
  const repo = createAdminStatsRepository(deps.db);

  return {
    async dashboard() {
      const [totals, salesOverview, recentOrders, recentAudit, support] = await Promise.all([
        repo.dashboardTotals(),
        repo.dailySales(DASHBOARD_SALES_DAYS),
        repo.recentOrders(DASHBOARD_RECENT_ORDERS),
        deps.audit.newest(DASHBOARD_RECENT_AUDIT),
        supportTimes(deps.db),
      ]);
      // No trend until the shop has a whole earlier week to compare with: a shop set up (or seeded
      // with backdated demo rows) this week would show made-up growth.
      const stat = (t: { total: number; current: number; previous: number }) => ({
        value: t.total,
        trend: totals.earlierWeekCovered ? trendPercent(t.current, t.previous) : null,
      });
      return {
        totals: {
          orders: stat(totals.orders),
          products: stat(totals.products),
          customers: stat(totals.customers),
          revenueCents: stat(totals.revenueCents),
        },
        salesOverview,
        recentOrders,
        recentAudit,
        support,
        generatedAt: new Date().toISOString(),
      };
    },

    async analytics() {
      const [dailySales, categories, methods, retention] = await Promise.all([
        repo.dailySales(ANALYTICS_DAYS),
        repo.categoryDistribution(),
        repo.paymentMethods(),
        repo.retention(),
      ]);
      const byMethod = new Map(methods.map((m) => [m.method, m]));
      const counts = { one_time: retention.oneTime, returning: retention.returning, loyal: retention.loyal };
      return {
        dailySales,
        categories: categories.map((c) => ({ ...c, label: categoryLabel(c.category) })),
        // Every method the shop takes, in a fixed order, zero when unused.
        paymentMethods: PAYMENT_METHOD_ORDER.map((method) => ({
          method,
          orders: byMethod.get(method)?.orders ?? 0,
          amountCents: byMethod.get(method)?.amountCents ?? 0,
        })),
        retention: RETENTION_SEGMENTS.map((s) => ({
          segment: s.segment,
          label: s.label,
          customers: counts[s.segment],
        })),
        generatedAt: new Date().toISOString(),
      };
    },

    async customers(query) {
      const { rows, total, hasMore } = await repo.findCustomers({
        search: query.search,
        sort: query.sort,
        ...pageWindow(query),
      });
      return toPage(rows, query, total, hasMore);
    },
  };
}
