import { PageTitle } from '../../../components/page-title';
import { AirdropManagement } from '../../../features/admin/airdrops/components/airdrop-management';
import { AdminPageHeader } from '../../layouts/admin-layout';

export function Component() {
  return (
    <>
      <PageTitle title="Airdrops · Admin" />
      <AdminPageHeader title="Airdrop Management" description="Token airdrops claimed by wallets." />
      <AirdropManagement />
    </>
  );
}
