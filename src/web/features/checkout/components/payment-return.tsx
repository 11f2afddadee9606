import { explorerTxUrl } from '#common/explorer';
import { useTokenInfo } from '#web/lib/shop-info';
import { ArrowUpRight, CircleAlert, CircleCheck, PackageCheck } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { useCartStore } from '../stores/cart-store';
import { CARD_PAYMENT_SUCCESS_MESSAGE } from '../hooks/use-payment-return';
import { usePaymentStatusPolling } from '../hooks/use-payment-status-polling';
import { useCheckoutStore } from '../stores/checkout-store';
import { shortHash, shortOrderId } from '#common/format';

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
 * The payment-return page's content (/success?reference=...): confirming -> success or error,
 * polling the payment's status (see usePaymentStatusPolling).
 */
export function PaymentReturn({ reference }: { reference: string }) {
  const view = usePaymentStatusPolling(reference);
  const cluster = useTokenInfo()?.cluster ?? 'mainnet-beta';
  useOrderPlaced(reference, view.state === 'success');
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (view.state !== 'confirming') headingRef.current?.focus();
  }, [view.state]);

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

      <div className="mt-8 w-full rounded-2xl border border-stone-200 bg-white p-5 text-left shadow-xs">
        {view.signature ? (
          <div className="flex items-center justify-between gap-4">
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
        ) : view.orderId ? (
          <div className="flex items-center justify-between gap-4">
            <p className="text-sm text-stone-600">Order number</p>
            <p
              className="text-sm font-semibold tracking-wider text-stone-950 tabular-nums"
              data-testid="order-number"
            >
              {shortOrderId(view.orderId)}
            </p>
          </div>
        ) : null}
        <div className="mt-4 flex gap-3 border-t border-stone-100 pt-4">
          <PackageCheck className="mt-0.5 size-5 shrink-0 text-rose-600" aria-hidden="true" />
          <p className="text-sm leading-relaxed text-stone-700">{TRACKING_NOTE}</p>
        </div>
      </div>

      <div className="mt-8 flex w-full flex-col gap-3 sm:flex-row">
        <Link
          to={paths.profile.root.getHref()}
          className={buttonClasses({ size: 'lg', variant: 'outline', className: 'sm:flex-1' })}
        >
          View Order Status
        </Link>
        <Link to={paths.home.getHref()} className={buttonClasses({ size: 'lg', className: 'sm:flex-1' })}>
          Continue Shopping
        </Link>
      </div>
    </Frame>
  );
}
