import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import type { PageHandle } from '#web/app/page-data';
import { linkedWalletQueryOptions } from '#web/features/wallet/api/wallet';
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

/** The linked wallet (the token's chain comes with the layout; the rewards, a POST, load in the browser). */
export const handle = {
  prefetch: (queryClient) => queryClient.prefetchQuery(linkedWalletQueryOptions()),
} satisfies PageHandle;
