import { PageTitle } from '#web/components/page-title';
import { paths } from '#web/config/paths';
import { DashboardOverview } from '#web/features/admin/dashboard/components/dashboard-overview';
import { PaymentMethodsWarning } from '#web/features/admin/dashboard/components/payment-methods-warning';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminDashboardPage() {
  return (
    <>
      <PageTitle title="Dashboard · Admin" />
      <AdminPageHeader title="Dashboard Overview" description="How the shop is doing, updated live." />
      <div className="mb-6 empty:hidden">
        <PaymentMethodsWarning settingsHref={paths.admin.settings.getHref()} />
      </div>
      <DashboardOverview
        ordersHref={paths.admin.orders.getHref()}
        auditHref={paths.admin.audit.getHref()}
        messagesHref={paths.admin.messages.getHref()}
      />
    </>
  );
}
