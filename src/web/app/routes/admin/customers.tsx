import { PageTitle } from '#web/components/page-title';
import { CustomersTable } from '#web/features/admin/customers/components/customers-table';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminCustomersPage() {
  return (
    <>
      <PageTitle title="Customers · Admin" />
      <AdminPageHeader title="Customers" description="Everyone who ordered, grouped by shipping email." />
      <CustomersTable />
    </>
  );
}
