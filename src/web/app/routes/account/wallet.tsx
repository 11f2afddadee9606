import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import { WalletRewards } from '#web/features/wallet/components/wallet-rewards';

export function Component() {
  return (
    <>
      <PageTitle title="Wallet & Rewards" />
      <AccountPageHeader title="Wallet & Rewards" />
      <WalletRewards />
    </>
  );
}
