import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import { linkedWalletQueryOptions } from '#web/features/wallet/api/wallet';
import { WalletRewards } from '#web/features/wallet/components/wallet-rewards';

export default function AccountWalletPage() {
  return (
    <>
      <PageTitle title="Wallet & Rewards" />
      <AccountPageHeader title="Wallet & Rewards" />
      <WalletRewards />
    </>
  );
}

/** The linked wallet (the token's chain comes with the layout; the rewards, a POST, load in the browser). */
export const loader = queriesLoader((queryClient) => queryClient.prefetchQuery(linkedWalletQueryOptions()));
export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
