import { CheckCircle2, X } from 'lucide-react';
import { formatReceivedAmount } from '#common/crypto-amounts';
import { explorerTxUrl } from '#common/explorer';
import { TOKEN_SYMBOL } from '#common/token';
import { useTokenInfo } from '#web/lib/shop-info';
import { usePurchaseReceiptStore, type PurchaseReceipt } from '../stores/purchase-receipt-store';

/** Where the purchase's tokens went, shortened: "7xKX…9fQd". */
export function shortAddress(value: string): string {
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/**
 * What a completed purchase sent where, and its transaction's link (the modal's success and the
 * receipt card both say it).
 */
export function PurchaseDetails({
  purchase,
  className,
  linkClassName,
}: {
  purchase: Pick<PurchaseReceipt, 'tokenAmount' | 'tokenDecimals' | 'buyer' | 'signature'>;
  className: string;
  linkClassName: string;
}) {
  const token = useTokenInfo();
  return (
    <>
      <p className={`${className} text-sm text-stone-600`}>
        {formatReceivedAmount(purchase.tokenAmount, purchase.tokenDecimals)} {TOKEN_SYMBOL} sent to{' '}
        {purchase.buyer ? shortAddress(purchase.buyer) : 'your wallet'}.
      </p>
      {purchase.signature && token ? (
        <a
          href={explorerTxUrl(purchase.signature, token.cluster)}
          className={`${linkClassName} text-sm font-medium text-rose-700 underline-offset-4 hover:underline`}
          target={token.cluster === 'local' ? undefined : '_blank'}
          rel="noreferrer"
        >
          View transaction
        </a>
      ) : null}
    </>
  );
}

/**
 * The receipt of a completed token purchase, once the modal has closed: what arrived, where, and
 * the transaction, until the buyer closes it.
 */
export function PurchaseReceiptCard() {
  const receipt = usePurchaseReceiptStore((s) => s.receipt);
  const dismiss = usePurchaseReceiptStore((s) => s.dismiss);
  if (!receipt) return null;
  return (
    <section
      aria-label={`${TOKEN_SYMBOL} purchase receipt`}
      className="fixed inset-x-3 bottom-3 z-40 rounded-2xl border border-stone-200 bg-white p-4 shadow-xl shadow-stone-950/10 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-96"
    >
      <div className="flex items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden="true" />
        <div className="min-w-0 flex-1" role="status">
          <p className="text-sm font-semibold text-stone-950">Your {TOKEN_SYMBOL} has arrived</p>
          <PurchaseDetails purchase={receipt} className="mt-0.5" linkClassName="mt-2 inline-block" />
        </div>
        <button
          type="button"
          onClick={dismiss}
          aria-label="Close receipt"
          className="-m-1.5 flex size-9 shrink-0 items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-900"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
    </section>
  );
}
