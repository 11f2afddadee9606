import { PageTitle } from '#web/components/page-title';
import { AirdropManagement } from '#web/features/admin/airdrops/components/airdrop-management';
import { TokenSalesPanel } from '#web/features/admin/token-sales/components/token-sales-panel';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminAirdropsPage() {
  return (
    <>
      <PageTitle title="Airdrops · Admin" />
      <AdminPageHeader title="Airdrop Management" description="Token airdrops claimed by wallets." />
      <AirdropManagement />
      <div className="mt-8">
        <TokenSalesPanel />
      </div>
    </>
  );
}
