import { useParams } from 'react-router';
import { InfoPage } from '#web/app/layouts/info-page';
import { TransactionView } from '#web/features/chain/components/transaction-view';

/** /explorer/tx/:signature: the local ledger's transaction, for the shop's explorer links in local mode. */
export function Component() {
  const { signature = '' } = useParams();
  return (
    <InfoPage
      eyebrow="Local ledger explorer"
      title="Transaction"
      intro="A transaction of this shop's local Solana ledger: who signed, whose balances changed and what the programs logged."
      width="wide"
    >
      <TransactionView signature={signature} />
    </InfoPage>
  );
}
