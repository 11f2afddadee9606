import { lazy } from 'react';
import { formatUsd } from '#common/money';
import { ANALYTICS_DAYS } from '#common/schemas/admin-analytics';
import { Alert } from '#web/components/ui/alert';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { analyticsKeys } from '../api/analytics-keys';
import { ChartFigure } from '#web/features/admin/shared/components/chart-figure';
import { formatCount, formatDay, paymentMethodLabel } from '#web/features/admin/shared/format';
import { useAnalytics } from '../api/get-analytics';

const charts = () => import('#web/features/admin/shared/components/charts');
const SalesLineChart = lazy(() => charts().then((m) => ({ default: m.SalesLineChart })));
const HorizontalBarChart = lazy(() => charts().then((m) => ({ default: m.HorizontalBarChart })));
const DonutChart = lazy(() => charts().then((m) => ({ default: m.DonutChart })));

/** Daily Sales, Category Distribution, Payment Methods and Customer Retention. */
export function AnalyticsCharts() {
  useLiveEvents({ 'admin:orders': [analyticsKeys.all] });
  const analytics = useAnalytics();

  if (analytics.isError) {
    return <Alert variant="error">{errorMessage(analytics.error, 'Failed to load analytics')}</Alert>;
  }
  if (analytics.isPending) {
    return (
      <div role="status" className="grid gap-6 lg:grid-cols-2">
        <span className="sr-only">Loading analytics</span>
        <Skeleton className="h-80 rounded-2xl lg:col-span-2" />
        <Skeleton className="h-72 rounded-2xl" />
        <Skeleton className="h-72 rounded-2xl" />
        <Skeleton className="h-72 rounded-2xl" />
      </div>
    );
  }
  const { dailySales, categories, paymentMethods, retention } = analytics.data;
  const revenue = dailySales.reduce((sum, d) => sum + d.revenueCents, 0);
  const orders = dailySales.reduce((sum, d) => sum + d.orders, 0);
  const methods = paymentMethods.map((m) => ({ label: paymentMethodLabel(m.method), value: m.orders }));
  const segments = retention.map((r) => ({ label: r.label, value: r.customers }));

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ChartFigure
        title="Daily Sales"
        titleId="daily-sales"
        description={`Revenue per day, last ${ANALYTICS_DAYS} days: ${formatUsd(revenue)} from ${formatCount(orders)} orders`}
        className="lg:col-span-2"
        height={280}
        table={{
          columns: ['Day', 'Revenue', 'Orders'],
          rows: dailySales.map((d) => [formatDay(d.date), formatUsd(d.revenueCents), d.orders]),
        }}
      >
        <SalesLineChart data={dailySales} height={280} />
      </ChartFigure>

      <ChartFigure
        title="Category Distribution"
        titleId="category-distribution"
        description="Items sold per category"
        className="lg:col-span-2"
        table={{
          columns: ['Category', 'Items sold', 'Revenue'],
          rows: categories.map((c) => [c.label, c.quantity, formatUsd(c.revenueCents)]),
        }}
      >
        {categories.length === 0 ? (
          <p className="py-10 text-center text-sm text-stone-500">No sales yet.</p>
        ) : (
          <HorizontalBarChart
            valueLabel="Items sold"
            data={[...categories]
              .sort((a, b) => b.quantity - a.quantity || b.revenueCents - a.revenueCents)
              .map((c) => ({
                label: c.label,
                value: c.quantity,
                detail: formatUsd(c.revenueCents),
              }))}
          />
        )}
      </ChartFigure>

      <ChartFigure
        title="Payment Methods"
        titleId="payment-methods"
        description="Orders by how they were paid"
        height={192}
        table={{
          columns: ['Method', 'Orders', 'Revenue'],
          rows: paymentMethods.map((m) => [paymentMethodLabel(m.method), m.orders, formatUsd(m.amountCents)]),
        }}
      >
        <DonutChart data={methods} />
      </ChartFigure>

      <ChartFigure
        title="Customer Retention"
        titleId="customer-retention"
        description="One-time (1 order), Returning (2), Loyal (3 or more)"
        height={192}
        table={{ columns: ['Segment', 'Customers'], rows: retention.map((r) => [r.label, r.customers]) }}
      >
        <DonutChart data={segments} />
      </ChartFigure>
    </div>
  );
}
