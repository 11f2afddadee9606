import { PageTitle } from '#web/components/page-title';
import { AnalyticsCharts } from '#web/features/admin/analytics/components/analytics-charts';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminAnalyticsPage() {
  return (
    <>
      <PageTitle title="Analytics · Admin" />
      <AdminPageHeader
        title="Analytics"
        description="Sales, categories, payment methods and returning customers."
      />
      <AnalyticsCharts />
    </>
  );
}
