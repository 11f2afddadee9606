import { PageTitle } from '../../../components/page-title';
import { AnalyticsCharts } from '../../../features/admin/analytics/components/analytics-charts';
import { AdminPageHeader } from '../../layouts/admin-layout';

export function Component() {
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
