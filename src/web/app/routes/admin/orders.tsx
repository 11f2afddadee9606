import { PageTitle } from '#web/components/page-title';
import { OrdersList } from '#web/features/admin/orders/components/orders-list';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminOrdersPage() {
  return (
    <>
      <PageTitle title="Orders · Admin" />
      <AdminPageHeader
        title="Orders"
        description="Paid orders, newest first. Expand one to edit or delete it."
      />
      <OrdersList />
    </>
  );
}
