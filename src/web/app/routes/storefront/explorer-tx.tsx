import { useParams } from 'react-router';
import { InfoPage } from '#web/app/layouts/info-page';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import { explorerTransactionQueryOptions } from '#web/features/chain/api/get-explorer-transaction';
import { TransactionView } from '#web/features/chain/components/transaction-view';

/** /explorer/tx/:signature: the local ledger's transaction, for the shop's explorer links in local mode. */
export default function StorefrontExplorerTxPage() {
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

/** The transaction arrives with the page's HTML (an unknown signature's error is left to the browser). */
export const loader = queriesLoader((queryClient, { params }) =>
  queryClient.prefetchQuery(explorerTransactionQueryOptions(params.signature ?? '')),
);
export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
