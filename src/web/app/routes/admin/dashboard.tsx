import { PageTitle } from '../../../components/page-title';
import { paths } from '../../../config/paths';
import { DashboardOverview } from '../../../features/admin/dashboard/components/dashboard-overview';
import { AdminPageHeader } from '../../layouts/admin-layout';

export function Component() {
  return (
    <>
      <PageTitle title="Dashboard · Admin" />
      <AdminPageHeader title="Dashboard Overview" description="How the shop is doing, updated live." />
      <DashboardOverview ordersHref={paths.admin.orders.getHref()} auditHref={paths.admin.audit.getHref()} />
    </>
  );
}
