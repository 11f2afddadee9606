import { explorerTxUrl } from '#common/explorer';
import { useTokenInfo } from '#web/lib/shop-info';
import { ArrowUpRight, CircleAlert, CircleCheck, FlaskConical, Hash, PackageCheck } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { useCurrentUser } from '#web/lib/current-user';
import { useCartStore } from '../stores/cart-store';
import { CARD_PAYMENT_SUCCESS_MESSAGE } from '../hooks/use-payment-return';
import { usePaymentStatusPolling } from '../hooks/use-payment-status-polling';
import { useCheckoutStore } from '../stores/checkout-store';
import { orderStatusHref } from '../utils/order-links';
import { shortHash } from '#common/format';
import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';

export const TRACKING_NOTE = 'You will receive tracking information within 48 hours once your order ships.';

function Frame({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto flex w-full max-w-lg flex-1 flex-col items-center justify-center px-5 py-16 text-center sm:py-24">
      {children}
    </section>
  );
}

/** The order is placed: empty the cart, end the checkout, tell an opener window (once). */
function useOrderPlaced(reference: string, isPlaced: boolean) {
  const done = useRef(false);
  useEffect(() => {
    if (!isPlaced || done.current) return;
    done.current = true;
    useCartStore.getState().clear();
    useCheckoutStore.getState().finish();
    const opener = window.opener as Window | null;
    if (opener && opener !== window) {
      try {
        opener.postMessage({ type: CARD_PAYMENT_SUCCESS_MESSAGE, reference }, window.location.origin);
      } catch {
        // The opener went to another site: nothing to tell.
      }
    }
  }, [isPlaced, reference]);
}

/**
 * The payment-return page's content (/success?reference=...&token=...): confirming -> success or
 * error, polling the payment's status (see usePaymentStatusPolling). With the checkout's access
 * token the success names the order: its number, and "View Order Status" goes to its page (the
 * guest order page, or the account's order for a signed-in customer; never the sign-in page).
 */
export function PaymentReturn({ reference, token = null }: { reference: string; token?: string | null }) {
  const view = usePaymentStatusPolling(reference, token);
  const cluster = useTokenInfo()?.cluster ?? 'mainnet-beta';
  const { user } = useCurrentUser();
  useOrderPlaced(reference, view.state === 'success');
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (view.state !== 'confirming') headingRef.current?.focus();
  }, [view.state]);

  // A guest's order page is the signed link; a signed-in customer's, the account's own (or the
  // account area when the server named neither).
  const statusHref =
    view.state === 'success'
      ? (orderStatusHref(view, Boolean(user)) ?? (user ? paths.profile.orders.getHref() : null))
      : null;

  if (view.state === 'confirming') {
    return (
      <Frame>
        <PageTitle title="Confirming Your Payment" />
        <div className="flex size-20 items-center justify-center rounded-full bg-rose-50 text-rose-600">
          <Spinner size="lg" label="Confirming" />
        </div>
        <h1 className="mt-8 text-3xl font-semibold tracking-tight text-stone-950">Confirming Your Payment</h1>
        <p className="mt-3 max-w-sm text-[15px] leading-relaxed text-stone-500">
          This usually takes a few seconds. Please keep this page open.
        </p>
      </Frame>
    );
  }

  if (view.state === 'error') {
    return (
      <Frame>
        <PageTitle title="Payment Error" />
        <div className="flex size-20 items-center justify-center rounded-full bg-red-50 text-red-600">
          <CircleAlert className="size-9" strokeWidth={1.75} aria-hidden="true" />
        </div>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="mt-8 text-3xl font-semibold tracking-tight text-stone-950 outline-none"
        >
          Payment Error
        </h1>
        <p role="alert" className="mt-3 max-w-sm text-[15px] leading-relaxed text-red-700">
          {view.message}
        </p>
        <Link
          to={paths.home.getHref()}
          className={buttonClasses({ size: 'lg', className: 'mt-10 min-w-52' })}
        >
          Return to Store
        </Link>
      </Frame>
    );
  }

  return (
    <Frame>
      <PageTitle title="Order Confirmed" />
      <div className="flex size-20 items-center justify-center rounded-full bg-emerald-50 text-emerald-600 ring-8 ring-emerald-50/50">
        <CircleCheck className="size-9" strokeWidth={1.75} aria-hidden="true" />
      </div>
      <h1
        ref={headingRef}
        tabIndex={-1}
        className="mt-8 text-3xl font-semibold tracking-tight text-balance text-stone-950 outline-none"
      >
        Thank You for Your Order!
      </h1>
      <p className="mt-3 text-[15px] leading-relaxed text-stone-500">
        Your payment is confirmed and your order is placed.
      </p>

      <div className="mt-8 w-full divide-y divide-stone-100 rounded-2xl border border-stone-200 bg-white text-left shadow-xs">
        {view.orderNumber ? (
          <div className="flex items-center justify-between gap-4 px-5 py-4">
            <p className="flex items-center gap-2 text-sm text-stone-600">
              <Hash className="size-4 text-stone-400" aria-hidden="true" />
              Order number
            </p>
            <p
              className="text-[15px] font-semibold tracking-[0.08em] text-stone-950 tabular-nums"
              data-testid="order-number"
            >
              {view.orderNumber}
            </p>
          </div>
        ) : null}
        {view.signature ? (
          <div className="flex items-center justify-between gap-4 px-5 py-4">
            <p className="text-sm text-stone-600">Transaction</p>
            <a
              href={explorerTxUrl(view.signature, cluster)}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 rounded text-sm font-semibold tracking-wide text-rose-700 tabular-nums underline-offset-4 hover:underline"
            >
              {shortHash(view.signature)}
              <ArrowUpRight className="size-3.5" aria-hidden="true" />
              <span className="sr-only">(view on the block explorer, opens in a new tab)</span>
            </a>
          </div>
        ) : null}
        {view.demo ? (
          // Paid with test money (the server says): nothing ships, and the page says so.
          <div className="flex gap-3 bg-orange-50/60 px-5 py-4" data-testid="demo-order-note">
            <FlaskConical className="mt-0.5 size-5 shrink-0 text-orange-600" aria-hidden="true" />
            <p className="text-sm leading-relaxed text-stone-700">
              {DEMO_LEDGER_TEXTS.orderConfirmationLine}
            </p>
          </div>
        ) : null}
        <div className="flex gap-3 px-5 py-4">
          <PackageCheck className="mt-0.5 size-5 shrink-0 text-rose-600" aria-hidden="true" />
          <p className="text-sm leading-relaxed text-stone-700">{TRACKING_NOTE}</p>
        </div>
      </div>

      <div className="mt-8 flex w-full flex-col gap-3 sm:flex-row">
        {statusHref ? (
          <Link
            to={statusHref}
            className={buttonClasses({ size: 'lg', variant: 'outline', className: 'sm:flex-1' })}
          >
            View Order Status
          </Link>
        ) : null}
        <Link to={paths.home.getHref()} className={buttonClasses({ size: 'lg', className: 'sm:flex-1' })}>
          Continue Shopping
        </Link>
      </div>
    </Frame>
  );
}
