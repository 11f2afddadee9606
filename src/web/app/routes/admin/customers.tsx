import { PageTitle } from '../../../components/page-title';
import { CustomersTable } from '../../../features/admin/customers/components/customers-table';
import { AdminPageHeader } from '../../layouts/admin-layout';

export function Component() {
  return (
    <>
      <PageTitle title="Customers · Admin" />
      <AdminPageHeader title="Customers" description="Everyone who ordered, grouped by shipping email." />
      <CustomersTable />
    </>
  );
}
