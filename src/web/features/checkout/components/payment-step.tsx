import { CreditCard, Lock, ShieldCheck } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { CHECKOUT_SERVER_MESSAGES } from '#common/schemas/checkout';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { useShopName } from '#web/lib/shop-name';
import { CartTotalsList } from './cart-totals';
import { CryptoBlock } from './crypto-payment-block';
import { OrderReview } from './order-review';
import { useCheckoutConfig } from '../api/get-checkout-config';
import { useCardCheckout } from '../hooks/use-card-checkout';
import { useCheckoutStore } from '../stores/checkout-store';

const subscribeNothing = () => () => undefined;

/** Whether the page came over https (false on the server: the drawer is drawn in the browser). */
function useServedOverHttps(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => window.location.protocol === 'https:',
    () => false,
  );
}

/**
 * The spec's 'Secure Checkout' banner. "Encrypted" only when it is true: a shop served over plain
 * http (a local or LAN try-out) says what holds there, that card numbers and wallet keys never
 * reach the shop.
 */
function SecureBanner() {
  const encrypted = useServedOverHttps();
  const shopName = useShopName();
  return (
    <div className="flex items-center gap-3 rounded-2xl bg-rose-50/70 px-4 py-3 ring-1 ring-rose-100">
      <ShieldCheck className="size-5 shrink-0 text-rose-600" aria-hidden="true" />
      <p className="min-w-0 text-[13px] leading-snug text-stone-600">
        <span className="block text-sm font-semibold text-stone-950">Secure Checkout</span>
        {encrypted
          ? `Encrypted end to end. ${shopName} never sees your card number or your wallet's keys.`
          : `Card numbers are entered on Stripe's page and wallet keys stay in your wallet: ${shopName} never sees either.`}
      </p>
    </div>
  );
}

function OrDivider() {
  return (
    <div className="flex items-center gap-4" aria-hidden="true">
      <span className="h-px flex-1 bg-stone-200" />
      <span className="text-sm font-medium text-stone-500">or</span>
      <span className="h-px flex-1 bg-stone-200" />
    </div>
  );
}

function CardBlock() {
  const config = useCheckoutConfig();
  const isBusy = useCheckoutStore((s) => s.isBusy);
  const { pay } = useCardCheckout();
  const isDisabledByServer = config.data?.card.enabled === false;

  return (
    <section
      aria-labelledby="pay-card-title"
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-xs"
    >
      <div className="flex items-center justify-between gap-3">
        <h3 id="pay-card-title" className="flex items-center gap-2 text-sm font-semibold text-stone-900">
          <CreditCard className="size-4.5 text-rose-600" aria-hidden="true" />
          Pay with card
        </h3>
        <p className="text-xs text-stone-500">Visa, Mastercard, Amex</p>
      </div>

      <CartTotalsList className="mt-4" />

      {isDisabledByServer ? (
        <Alert variant="info" className="mt-4">
          {CHECKOUT_SERVER_MESSAGES.cardNotConfigured}
        </Alert>
      ) : null}

      <div className="mt-4">
        {config.isPending ? (
          <Skeleton className="h-12 w-full rounded-full" />
        ) : (
          <Button
            size="lg"
            fullWidth
            onClick={pay}
            isLoading={isBusy}
            disabled={isBusy || isDisabledByServer}
          >
            {isBusy ? null : <Lock className="size-4" aria-hidden="true" />}
            Pay with Card
          </Button>
        )}
        <p className="mt-2.5 text-center text-xs text-stone-500">
          You will finish on Stripe&rsquo;s secure page and come back here.
        </p>
      </div>
    </section>
  );
}

/** Step 3: 'Secure Checkout', the order to review, the crypto block, 'or', the card block. */
export function PaymentStep() {
  const paymentError = useCheckoutStore((s) => s.paymentError);
  return (
    <div className="space-y-4">
      <SecureBanner />
      {paymentError ? <Alert variant="error">{paymentError}</Alert> : null}
      <OrderReview />
      <CryptoBlock />
      <OrDivider />
      <CardBlock />
    </div>
  );
}
