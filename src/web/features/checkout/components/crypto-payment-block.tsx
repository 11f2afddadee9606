import { Coins, Wallet } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { formatCryptoAmount } from '#common/crypto-amounts';
import { formatUsd, TOKEN_DISCOUNT_PERCENT } from '#common/money';
import type { CheckoutResponse } from '#common/schemas/checkout';
import { TOKEN_SYMBOL } from '#common/token';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { useTokenInfo } from '#web/lib/shop-info';
import { cancelPayment } from '../api/cancel-payment';
import { useCheckoutConfig } from '../api/get-checkout-config';
import { createCheckout } from '../api/create-checkout';
import { checkoutItems, prepareCheckout } from '../hooks/use-card-checkout';
import { useCryptoPaymentStatus } from '../hooks/use-crypto-payment-status';
import { useCartStore } from '../stores/cart-store';
import { useCheckoutStore } from '../stores/checkout-store';
import { checkoutErrorMessage } from '../utils/checkout-error';
import { closePaidCart, confirmationFrom, isCartAlreadyPaid, placeOrder } from '../utils/order-placed';
import { ReceivedSoFarCard, RefundList } from './crypto-payment-progress';

// QR code, Wallet Standard and Solana code: loaded when a crypto payment starts, never before.
const SolanaPayPanel = lazy(() =>
  import('#web/components/solana-pay-panel').then((m) => ({ default: m.SolanaPayPanel })),
);

type Method = 'sol' | 'aelo';

const SYMBOL: Record<Method, string> = { sol: 'SOL', aelo: TOKEN_SYMBOL };

/**
 * The crypto block of the payment step: Pay with SOL, or with AELO for 10% off. The server prices
 * the order in the coin and answers a Solana Pay request; the block follows the payment's status on
 * the server until it is paid (confirmation step: the cart is emptied at once), fails, or its 5
 * minutes end ('Payment timeout. Please try again.', and the stock goes back). Part payments show
 * what has arrived and what is left; after the 5 minutes the status is still followed for a while,
 * so a late payment shows what became of it (an order, or a refund) instead of the timeout.
 */
export function CryptoBlock() {
  const config = useCheckoutConfig();
  const token = useTokenInfo();
  const isBusy = useCheckoutStore((s) => s.isBusy);
  const [payment, setPayment] = useState<CheckoutResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isSent, setIsSent] = useState(false);
  const status = useCryptoPaymentStatus(payment);
  const shopperRef = useRef<{ name: string; email: string } | null>(null);
  const isEnabled = config.data?.crypto.enabled === true;

  // The server decided. Paid: the checkout is closed (cart emptied, confirmation step).
  useEffect(() => {
    if (!payment || status.state !== 'completed') return;
    placeOrder(
      confirmationFrom(
        {
          reference: payment.reference,
          totalCents: payment.amounts.totalCents,
          name: shopperRef.current?.name ?? '',
          email: shopperRef.current?.email ?? '',
        },
        status.data,
      ),
    );
  }, [status, payment]);
  const endedMessage = !payment
    ? null
    : status.state === 'error' || status.state === 'ended'
      ? status.message
      : null;
  const refunds = payment && status.state === 'ended' ? (status.data.refunds ?? []) : [];
  const shownError = error ?? endedMessage;
  const received = status.state === 'waiting' ? status.received : null;
  // Part paid: the rest can be sent again, from the link or the browser wallet.
  const owesMore = received !== null && Number(received.remainingText) > 0;

  // The order review shows the server's amounts (an AELO discount line) while the quote is live.
  const isLive = payment !== null && endedMessage === null;
  useEffect(() => {
    const { setQuote } = useCheckoutStore.getState();
    setQuote(isLive && payment ? { paymentMethod: payment.paymentMethod, amounts: payment.amounts } : null);
    return () => setQuote(null);
  }, [isLive, payment]);

  // The 5 minutes are up: the server ends the payment (after a last look at the chain) at once.
  useEffect(() => {
    if (!payment) return;
    const ms = Date.parse(payment.expiresAt) - Date.now();
    const timer = setTimeout(
      () => void cancelPayment(payment.reference).catch(() => null),
      Math.max(0, ms) + 250,
    );
    return () => clearTimeout(timer);
  }, [payment]);

  const start = async (method: Method) => {
    setError(null);
    setPayment(null);
    setIsSent(false);
    const ready = await prepareCheckout();
    if (!ready) return;
    const { shipping, account, items } = ready;
    try {
      const response = await createCheckout({
        items: checkoutItems(items),
        shippingInfo: shipping.value,
        paymentMethod: method,
        cartId: useCartStore.getState().cartId,
        ...(account.value ? { createAccount: account.value } : {}),
      });
      shopperRef.current = {
        name: `${shipping.value.firstName} ${shipping.value.lastName}`,
        email: shipping.value.email,
      };
      useCheckoutStore.getState().startPayment({
        reference: response.reference,
        accessToken: response.accessToken,
        totalCents: response.amounts.totalCents,
        name: shopperRef.current.name,
        email: shopperRef.current.email,
        startedAt: new Date().toISOString(),
      });
      setPayment(response);
    } catch (err) {
      // A cart already paid for: emptied, and said on the cart step. Else the error, here.
      if (isCartAlreadyPaid(err)) closePaidCart();
      else setError(checkoutErrorMessage(err));
    } finally {
      useCheckoutStore.getState().setBusy(false);
    }
  };

  const stop = async () => {
    if (!payment) return;
    const reference = payment.reference;
    setPayment(null);
    setIsSent(false);
    const result = await cancelPayment(reference).catch(() => null);
    if (result?.status === 'completed') setPayment(payment); // paid meanwhile: let the status confirm it
  };

  const crypto = payment?.crypto;
  const method = (payment?.paymentMethod ?? 'sol') as Method;
  const discountCents = payment?.amounts.discountCents ?? 0;

  return (
    <section
      aria-labelledby="pay-crypto-title"
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-xs"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <h3
          id="pay-crypto-title"
          className="flex items-center gap-2 text-sm font-semibold whitespace-nowrap text-stone-900"
        >
          <Wallet className="size-4.5 text-rose-600" aria-hidden="true" />
          Pay with crypto
        </h3>
        <p className="text-xs text-stone-500">SOL, or {TOKEN_SYMBOL} for 10% off</p>
      </div>

      {shownError ? (
        <Alert variant="error" className="mt-3">
          {shownError}
        </Alert>
      ) : null}
      {refunds.length > 0 ? (
        <div className="mt-2">
          <RefundList refunds={refunds} />
        </div>
      ) : null}

      {config.isPending ? (
        <Skeleton className="mt-4 h-11 w-full rounded-full" />
      ) : !isEnabled ? (
        <p className="mt-2 text-[13px] leading-relaxed text-stone-500">
          Crypto payments are not enabled on this shop; pay by card below.
        </p>
      ) : payment && crypto && token && !endedMessage ? (
        <div className="mt-4 space-y-3">
          {received ? (
            <ReceivedSoFarCard
              received={received}
              message={status.state === 'waiting' ? status.message : null}
            />
          ) : status.state === 'waiting' && status.message ? (
            <Alert variant="info">{status.message}</Alert>
          ) : null}
          <Suspense fallback={<Skeleton className="h-96 w-full rounded-2xl" />}>
            <SolanaPayPanel
              paymentUrl={crypto.paymentUrl}
              transactionPath={`/api/solana-pay/payments/${payment.reference}`}
              walletChain={token.walletChain}
              demoWallet={token.demoWallet}
              amountText={`${formatCryptoAmount(crypto.amount, crypto.decimals)} ${SYMBOL[method]}`}
              usdText={formatUsd(payment.amounts.totalCents)}
              discountText={discountCents > 0 ? `${TOKEN_DISCOUNT_PERCENT}% off` : null}
              expiresAt={payment.expiresAt}
              disabled={(isSent && !owesMore) || status.state === 'completed'}
              onSent={() => setIsSent(true)}
            />
          </Suspense>
          <p className="text-center text-xs text-stone-500" role="status">
            {isSent && !owesMore
              ? 'Payment sent. Confirming on the Solana network…'
              : 'Waiting for your payment…'}
          </p>
          <Button
            variant="ghost"
            size="sm"
            fullWidth
            onClick={() => void stop()}
            disabled={isSent && !owesMore}
          >
            Choose another way to pay
          </Button>
        </div>
      ) : (
        <div className="mt-4 grid grid-cols-2 gap-2">
          <Button variant="outline" onClick={() => void start('sol')} disabled={isBusy} isLoading={isBusy}>
            Pay with SOL
          </Button>
          <Button variant="outline" onClick={() => void start('aelo')} disabled={isBusy}>
            <Coins className="size-4 text-rose-600" aria-hidden="true" />
            Pay with {TOKEN_SYMBOL}
          </Button>
        </div>
      )}
    </section>
  );
}
