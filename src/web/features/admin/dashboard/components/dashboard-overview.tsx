import { ArrowRight, DollarSign, Package, ScrollText, ShoppingCart, Users } from 'lucide-react';
import { lazy } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '#common/money';
import type { AdminDashboard, RecentOrder } from '#common/schemas/admin-dashboard';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { dashboardKeys } from '../api/dashboard-keys';
import { AuditEntryLine } from '#web/features/admin/shared/components/audit-entry-line';
import { ChartFigure } from '#web/features/admin/shared/components/chart-figure';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { orderStatusLabel } from '#web/features/admin/shared/components/order-status';
import { Panel } from '#web/features/admin/shared/components/panel';
import { formatCount, formatDate, formatDay } from '#web/features/admin/shared/format';
import { useDashboard } from '../api/get-dashboard';
import { StatCard } from './stat-card';
import { SupportTimesPanel } from './support-times';

const SalesLineChart = lazy(() =>
  import('#web/features/admin/shared/components/charts').then((m) => ({ default: m.SalesLineChart })),
);

export interface DashboardOverviewProps {
  ordersHref: string;
  auditHref: string;
  messagesHref: string;
}

/**
 * The dashboard: four stat cards, the last 7 days of sales, the newest orders and audit entries,
 * and the support times.
 */
export function DashboardOverview({ ordersHref, auditHref, messagesHref }: DashboardOverviewProps) {
  useLiveEvents({
    'admin:orders': [dashboardKeys.all],
    'admin:products': [dashboardKeys.all],
    'admin:audit': [dashboardKeys.all],
    'admin:messages': [dashboardKeys.all],
  });
  const dashboard = useDashboard();

  if (dashboard.isError) {
    return <Alert variant="error">{errorMessage(dashboard.error, 'Failed to load the dashboard')}</Alert>;
  }
  if (dashboard.isPending) return <DashboardSkeleton />;
  const data = dashboard.data;

  return (
    <div className="space-y-6">
      <StatCards totals={data.totals} />
      <div className="grid gap-6 lg:grid-cols-5">
        <ChartFigure
          title="Sales Overview"
          titleId="sales-overview"
          description="Revenue per day, last 7 days"
          className="lg:col-span-3"
          table={{
            columns: ['Day', 'Revenue', 'Orders'],
            rows: data.salesOverview.map((d) => [formatDay(d.date), formatUsd(d.revenueCents), d.orders]),
          }}
        >
          <SalesLineChart data={data.salesOverview} />
        </ChartFigure>
        <Panel
          title="Recent Orders"
          titleId="recent-orders"
          className="lg:col-span-2"
          actions={<ViewAll to={ordersHref} what="orders" />}
        >
          <RecentOrders orders={data.recentOrders} />
        </Panel>
      </div>
      <div className="grid gap-6 lg:grid-cols-5">
        <Panel
          title="Recent Activity"
          titleId="recent-activity"
          className="lg:col-span-3"
          actions={<ViewAll to={auditHref} what="audit log entries" />}
        >
          {data.recentAudit.length === 0 ? (
            <EmptyState icon={ScrollText} title="No audit log entries found" />
          ) : (
            <ol className="-my-3 divide-y divide-stone-100">
              {data.recentAudit.map((entry) => (
                <li key={entry.id} className="py-3">
                  <AuditEntryLine entry={entry} />
                </li>
              ))}
            </ol>
          )}
        </Panel>
        <SupportTimesPanel support={data.support} messagesHref={messagesHref} className="lg:col-span-2" />
      </div>
    </div>
  );
}

function StatCards({ totals }: { totals: AdminDashboard['totals'] }) {
  return (
    <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Total Orders"
        value={formatCount(totals.orders.value)}
        trend={totals.orders.trend}
        icon={ShoppingCart}
      />
      <StatCard
        title="Total Products"
        value={formatCount(totals.products.value)}
        trend={totals.products.trend}
        icon={Package}
      />
      <StatCard
        title="Total Customers"
        value={formatCount(totals.customers.value)}
        trend={totals.customers.trend}
        icon={Users}
      />
      <StatCard
        title="Total Revenue"
        value={formatUsd(totals.revenueCents.value)}
        trend={totals.revenueCents.trend}
        icon={DollarSign}
      />
    </div>
  );
}

function RecentOrders({ orders }: { orders: RecentOrder[] }) {
  if (orders.length === 0) return <EmptyState icon={ShoppingCart} title="No orders yet" />;
  return (
    <ul className="-my-2 divide-y divide-stone-100">
      {orders.map((order) => (
        <li key={order.id} className="flex items-center justify-between gap-3 py-3">
          <div className="min-w-0">
            <p className="text-sm font-semibold tracking-tight text-stone-950 tabular-nums">
              #{order.shortId}
            </p>
            <p className="text-xs text-stone-500">{formatDate(order.createdAt)}</p>
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <p className="text-sm font-semibold text-stone-950 tabular-nums">
              {formatUsd(order.amountCents)}
            </p>
            {/* Spec: completed in green, every other status orange. */}
            <Badge tone={order.status === 'completed' ? 'green' : 'orange'}>
              {orderStatusLabel(order.status)}
            </Badge>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** 'View all', named for what it lists ('View all orders'): the visible words lead the name. */
function ViewAll({ to, what }: { to: string; what: string }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1 rounded text-sm font-medium text-rose-700 hover:text-rose-800"
    >
      View all<span className="sr-only"> {what}</span>
      <ArrowRight className="size-3.5" aria-hidden="true" />
    </Link>
  );
}

function DashboardSkeleton() {
  return (
    <div role="status" className="space-y-6">
      <span className="sr-only">Loading the dashboard</span>
      <div className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="space-y-3 rounded-2xl bg-white p-5 ring-1 ring-stone-200/80">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-7 w-28" />
            <Skeleton className="h-3 w-20" />
          </div>
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-5">
        <Skeleton className="h-80 rounded-2xl lg:col-span-3" />
        <Skeleton className="h-80 rounded-2xl lg:col-span-2" />
      </div>
    </div>
  );
}
