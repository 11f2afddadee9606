import { useQueryClient } from '@tanstack/react-query';
import { PenLine, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { shortHash } from '#common/format';
import { formatUsd } from '#common/money';
import type { Refund } from '#common/schemas/refund';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { useTokenInfo } from '#web/lib/shop-info';
import { useQrCode } from '#web/lib/solana/use-qr-code';
import { payingWallets, payWithWallet, WALLET_MESSAGES } from '#web/lib/solana/wallets';
import { useRefundSignRequest } from '../api/get-refund-sign-request';
import { adminOrderKeys } from '../api/orders-keys';

/** '/api/solana-pay/refunds/<id>?token=…' of a `solana:<url-encoded https link>` transaction request. */
function transactionPathOf(url: string): string {
  const link = new URL(decodeURIComponent(url.slice('solana:'.length)));
  return `${link.pathname}${link.search}`;
}

function SignRequest({ refund }: { refund: Refund }) {
  const request = useRefundSignRequest(refund.id, true);
  const token = useTokenInfo();
  const qr = useQrCode(request.data?.url ?? null);
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [isSigning, setIsSigning] = useState(false);

  if (request.isPending) return <Skeleton className="mt-3 h-40 w-full rounded-xl" />;
  if (request.isError)
    return (
      <Alert variant="error" className="mt-3">
        {request.error.message}
      </Alert>
    );
  const { url, signer } = request.data;

  const sign = async () => {
    setError(null);
    const chain = token?.walletChain;
    const wallet = chain ? payingWallets(chain)[0] : undefined;
    if (!chain || !wallet) {
      setError(WALLET_MESSAGES.install);
      return;
    }
    setIsSigning(true);
    try {
      setSent(await payWithWallet(wallet, transactionPathOf(url), chain));
      await queryClient.invalidateQueries({ queryKey: adminOrderKeys.all });
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : WALLET_MESSAGES.connect);
    } finally {
      setIsSigning(false);
    }
  };

  return (
    <div className="mt-3 space-y-3">
      <p className="text-[13px] leading-relaxed text-stone-600">
        No shop wallet key is configured on this server, so this refund waits for your signature. Sign it with
        the wallet holding the shop wallet{' '}
        <span className="font-mono text-stone-800" title={signer}>
          {shortHash(signer)}
        </span>
        : scan the code with a Solana Pay wallet, or use a browser wallet. It can be signed once only.
      </p>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        {qr ? (
          <img
            src={qr}
            width={180}
            height={180}
            alt="Solana Pay QR code of the refund: scan it with the shop wallet"
            className="size-[180px] rounded-lg ring-1 ring-stone-200"
          />
        ) : (
          <Skeleton className="size-[180px] rounded-lg" />
        )}
        <div className="flex w-full flex-col gap-2 sm:w-auto">
          <Button
            size="sm"
            onClick={() => void sign()}
            isLoading={isSigning}
            disabled={isSigning || sent !== null}
          >
            <PenLine className="size-4" aria-hidden="true" />
            Sign with browser wallet
          </Button>
          <a
            href={url}
            className="inline-flex h-9 items-center justify-center gap-2 rounded-full px-4 text-sm font-medium text-stone-700 ring-1 ring-stone-300 hover:bg-stone-50 focus-visible:ring-2 focus-visible:ring-rose-500 focus-visible:outline-none"
          >
            <Smartphone className="size-4" aria-hidden="true" />
            Open in wallet app
          </a>
        </div>
      </div>
      {error ? <Alert variant="error">{error}</Alert> : null}
      {sent ? (
        <p className="text-xs text-stone-600" role="status">
          Signed and sent ({shortHash(sent)}). The refund shows as refunded once the network confirms it.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The crypto refunds of an order still waiting for the shop wallet's signature (a shop run without
 * the key on a real cluster): each can be signed here with a connected wallet or a phone's wallet.
 */
export function RefundSignatures({ refunds }: { refunds: Refund[] }) {
  const waiting = refunds.filter((r) => r.status === 'awaiting_signature');
  const [open, setOpen] = useState<string | null>(null);
  if (waiting.length === 0) return null;
  return (
    <div className="space-y-3">
      {waiting.map((refund) => (
        <section
          key={refund.id}
          aria-label={`Refund of ${formatUsd(refund.amountCents)} awaiting signature`}
          className="rounded-xl bg-amber-50/60 p-3 ring-1 ring-amber-200/70"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm font-semibold text-stone-900">
              {refund.cryptoAmountText} {refund.cryptoSymbol} to {shortHash(refund.destination ?? '')} awaits
              your signature
            </p>
            {open === refund.id ? null : (
              <Button size="sm" variant="outline" onClick={() => setOpen(refund.id)}>
                Sign refund
              </Button>
            )}
          </div>
          {open === refund.id ? <SignRequest refund={refund} /> : null}
        </section>
      ))}
    </div>
  );
}
