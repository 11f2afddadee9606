import { ArrowLeft, BadgePercent, CheckCircle2, Gift, Leaf, Trophy } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import { formatCryptoAmount, formatReceivedAmount, SOL_DECIMALS } from '#common/crypto-amounts';
import { formatUsd } from '#common/money';
import type { TokenPurchaseResponse } from '#common/schemas/token-sale';
import {
  isPurchaseAmountPayable,
  nextPurchaseAmount,
  purchaseAmountError,
  TOKEN_PURCHASE_LIMITS,
} from '#common/token-purchase-amount';
import { TOKEN_SYMBOL } from '#common/token';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { ApiError } from '#web/lib/api-client';
import { useTokenInfo } from '#web/lib/shop-info';
import { useCreateTokenPurchase } from '../api/create-token-purchase';
import { useTokenPurchase } from '../api/get-token-purchase';
import { usePurchaseReceiptStore } from '../stores/purchase-receipt-store';
import { PurchaseDetails } from './purchase-receipt';

// QR code, Wallet Standard and Solana code: loaded with the payment, never before.
const SolanaPayPanel = lazy(() =>
  import('#web/components/solana-pay-panel').then((m) => ({ default: m.SolanaPayPanel })),
);

/** The modal closes this long after a completed purchase (spec §2); its receipt stays on the page. */
const CLOSE_AFTER_SUCCESS_MS = 2_000;
const TIMEOUT_MESSAGE = 'Payment timeout. Please try again.';

const BENEFITS = [
  { icon: BadgePercent, text: `10% off every purchase paid with ${TOKEN_SYMBOL}` },
  { icon: Gift, text: 'Random airdrops to holders' },
  { icon: Trophy, text: 'Daily SOL rewards for the top 50 holders' },
  { icon: Leaf, text: 'Support sustainable fashion' },
] as const;

function errorText(error: unknown): string {
  if (error instanceof ApiError) return Object.values(error.fields)[0] ?? error.message;
  return error instanceof Error ? error.message : 'Failed to process payment';
}

/**
 * Buy Token: the USD amount (spec §5 rules, default 100) and the benefits, then a Solana Pay
 * payment in SOL that the shop's treasury has co-signed, so the AELO arrives in the same
 * transaction. The server quotes and decides; the modal follows its status and closes 2 s after
 * the purchase completes, leaving its receipt (with the transaction link) on the page until the
 * buyer closes it.
 */
export function BuyTokenModal({ onClose }: { onClose: () => void }) {
  const token = useTokenInfo();
  const [amount, setAmount] = useState<string>(TOKEN_PURCHASE_LIMITS.defaultUsd);
  const [purchase, setPurchase] = useState<TokenPurchaseResponse | null>(null);
  const [isSent, setIsSent] = useState(false);
  const create = useCreateTokenPurchase();
  const status = useTokenPurchase(purchase?.reference ?? null);
  const current = status.data ?? purchase;
  const isCompleted = current?.status === 'completed';
  const isExpired = current?.status === 'expired';
  const amountError = purchaseAmountError(amount);

  const showReceipt = usePurchaseReceiptStore((s) => s.show);
  const completed = isCompleted ? current : null;
  // Closing a completed purchase's modal, by its timer or by the buyer, leaves the receipt.
  const close = useCallback(() => {
    if (completed) {
      const { reference, tokenAmount, tokenDecimals, buyer, signature } = completed;
      showReceipt({ reference, tokenAmount, tokenDecimals, buyer, signature });
    }
    onClose();
  }, [completed, onClose, showReceipt]);

  useEffect(() => {
    if (!isCompleted) return;
    const timer = setTimeout(close, CLOSE_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [isCompleted, close]);

  const start = (event: FormEvent) => {
    event.preventDefault();
    if (!isPurchaseAmountPayable(amount)) return;
    setIsSent(false);
    create.mutate({ amountUsd: amount }, { onSuccess: setPurchase });
  };

  const restart = () => {
    setPurchase(null);
    setIsSent(false);
    create.reset();
  };

  return (
    <Dialog
      open
      onClose={close}
      id="buy-token"
      title={`Buy ${TOKEN_SYMBOL}`}
      description={`Pay in SOL; your ${TOKEN_SYMBOL} arrives in the same transaction.`}
    >
      {isCompleted && current ? (
        <div className="flex flex-col items-center py-6 text-center" role="status">
          <CheckCircle2 className="size-12 text-emerald-600" aria-hidden="true" />
          <p className="mt-4 text-lg font-semibold text-stone-950">Purchase complete!</p>
          <PurchaseDetails purchase={current} className="mt-1" linkClassName="mt-3" />
        </div>
      ) : purchase && current && !isExpired ? (
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 rounded-2xl bg-stone-50 p-4 text-sm">
            <div>
              <dt className="text-xs text-stone-500">You receive</dt>
              <dd className="font-semibold text-stone-950 tabular-nums" data-testid="token-amount">
                {formatReceivedAmount(purchase.tokenAmount, purchase.tokenDecimals)} {TOKEN_SYMBOL}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-stone-500">For</dt>
              <dd className="font-semibold text-stone-950 tabular-nums">{formatUsd(purchase.usdCents)}</dd>
            </div>
            <div className="col-span-2">
              <dt className="sr-only">Rates</dt>
              <dd className="text-xs text-stone-500">
                1 {TOKEN_SYMBOL} = ${Number(purchase.tokenPriceUsd).toFixed(6)} · 1 SOL = $
                {Number(purchase.solPriceUsd).toFixed(2)}
              </dd>
            </div>
          </dl>
          {token ? (
            <Suspense fallback={<Skeleton className="h-96 w-full rounded-2xl" />}>
              <SolanaPayPanel
                paymentUrl={purchase.paymentUrl}
                transactionPath={`/api/solana-pay/token-purchases/${purchase.reference}`}
                walletChain={token.walletChain}
                demoWallet={token.demoWallet}
                amountText={`${formatCryptoAmount(purchase.lamports, SOL_DECIMALS)} SOL`}
                expiresAt={purchase.expiresAt}
                disabled={isSent}
                onSent={() => setIsSent(true)}
              />
            </Suspense>
          ) : (
            <Skeleton className="h-96 w-full rounded-2xl" />
          )}
          {status.error ? <Alert variant="error">{errorText(status.error)}</Alert> : null}
          <p className="text-center text-xs text-stone-500" role="status">
            {isSent ? 'Payment sent. Confirming on the Solana network…' : 'Waiting for your payment…'}
          </p>
          <Button variant="ghost" size="sm" fullWidth onClick={restart} disabled={isSent}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            Change amount
          </Button>
        </div>
      ) : (
        <form onSubmit={start} noValidate className="space-y-5">
          {isExpired ? <Alert variant="error">{TIMEOUT_MESSAGE}</Alert> : null}
          {create.error ? <Alert variant="error">{errorText(create.error)}</Alert> : null}
          <Field label="Amount (USD)" error={amountError ?? undefined}>
            <div className="relative">
              <span className="pointer-events-none absolute inset-y-0 left-3.5 flex items-center text-stone-500">
                $
              </span>
              <Input
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(nextPurchaseAmount(e.target.value, amount))}
                className="pl-7 text-lg font-semibold tabular-nums sm:text-lg"
              />
            </div>
          </Field>
          <ul className="space-y-2.5" aria-label={`Why hold ${TOKEN_SYMBOL}`}>
            {BENEFITS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-sm text-stone-700">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-600">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                {text}
              </li>
            ))}
          </ul>
          <Button
            type="submit"
            size="lg"
            fullWidth
            disabled={!isPurchaseAmountPayable(amount) || create.isPending}
            isLoading={create.isPending}
          >
            Pay with SOL
          </Button>
          <p className="text-center text-xs text-stone-500">
            ${TOKEN_PURCHASE_LIMITS.minUsd} to ${TOKEN_PURCHASE_LIMITS.maxUsd.toLocaleString('en-US')}. Crypto
            is high risk: buy only what you can afford to lose.
          </p>
        </form>
      )}
    </Dialog>
  );
}
