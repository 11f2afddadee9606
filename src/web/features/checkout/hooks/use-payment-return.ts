import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { cartTotals } from '#common/money';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { errorMessage } from '#web/lib/api-client';
import { useCartStore } from '../stores/cart-store';
import { cancelPayment } from '../api/cancel-payment';
import { getPaymentStatus } from '../api/get-payment-status';
import { useCheckoutStore } from '../stores/checkout-store';
import { confirmationFrom, placeOrder, type ConfirmationBase } from '../utils/order-placed';
import { RETURN_PAGE_MESSAGES } from '../utils/payment-polling';

/**
 * The message a shop page sends (same origin) when a card payment succeeded elsewhere, e.g. the
 * /success page opened from this one in another window:
 *   window.opener.postMessage({ type: 'card-payment-success', reference }, location.origin)
 */
export const CARD_PAYMENT_SUCCESS_MESSAGE = 'card-payment-success';
export interface CardPaymentSuccessMessage {
  type: typeof CARD_PAYMENT_SUCCESS_MESSAGE;
  reference: string;
}

/** Shown in the payment step after the provider's Cancel link. */
export const CARD_PAYMENT_CANCELLED = 'Payment cancelled';

export function isCardPaymentSuccessMessage(data: unknown): data is CardPaymentSuccessMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    'type' in data &&
    data.type === CARD_PAYMENT_SUCCESS_MESSAGE &&
    'reference' in data &&
    typeof data.reference === 'string' &&
    data.reference.length > 0 &&
    data.reference.length <= 128
  );
}

/** What the confirmation step shows for this reference: the server's total when we have it. */
function confirmationFor(reference: string): ConfirmationBase {
  const { startedPayment, shippingInfo } = useCheckoutStore.getState();
  if (startedPayment?.reference === reference) {
    return {
      reference,
      totalCents: startedPayment.totalCents,
      name: startedPayment.name,
      email: startedPayment.email,
    };
  }
  return {
    reference,
    totalCents: cartTotals(useCartStore.getState().items).totalCents,
    name: `${shippingInfo.firstName} ${shippingInfo.lastName}`.trim(),
    email: shippingInfo.email,
  };
}

/** Applies a payment's status to the drawer: completed -> confirmation; ended -> payment with the error. */
function applyStatus(reference: string, status: PaymentStatusResponse): void {
  const checkout = useCheckoutStore.getState();
  if (status.status === 'completed') {
    placeOrder(confirmationFrom(confirmationFor(reference), status));
  } else if (status.status === 'failed' || status.status === 'expired') {
    checkout.failPayment(status.message || RETURN_PAGE_MESSAGES.notConfirmed);
  }
}

/**
 * The ways a card payment's outcome reaches the drawer:
 * - the window message 'card-payment-success' (same origin) -> confirmation, drawer opened;
 * - the provider's cancel link `/?checkout=cancelled&reference=...` -> the payment is cancelled on
 *   the server and the drawer opens in payment with the message (or confirmation if it was paid);
 * - the shopper comes back to the drawer (opened, or the page restored by Back) while a started
 *   payment is remembered -> its status decides, as above; still pending changes nothing.
 */
export function usePaymentOutcome(isOpen: boolean): void {
  const location = useLocation();
  const navigate = useNavigate();
  const startedReference = useCheckoutStore((s) => s.startedPayment?.reference);
  const startedToken = useCheckoutStore((s) => s.startedPayment?.accessToken ?? null);
  const step = useCheckoutStore((s) => s.step);

  // Window message: a successful card payment.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      if (!isCardPaymentSuccessMessage(event.data)) return;
      placeOrder(confirmationFrom(confirmationFor(event.data.reference)));
      useCartStore.getState().open();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  // Back from the provider's page through the browser's history: not busy any more.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) useCheckoutStore.getState().setBusy(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  // The provider's cancel link (handled once per reference; the address is cleaned at once).
  const params = new URLSearchParams(location.search);
  const cancelledReference = params.get('checkout') === 'cancelled' ? params.get('reference') : null;
  const handled = useRef(new Set<string>());
  useEffect(() => {
    if (!cancelledReference || handled.current.has(cancelledReference)) return;
    handled.current.add(cancelledReference);
    const rest = new URLSearchParams(location.search);
    rest.delete('checkout');
    rest.delete('reference');
    const search = rest.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );

    useCheckoutStore.getState().setBusy(false);
    useCartStore.getState().open();
    cancelPayment(cancelledReference)
      .then((status) => {
        // Left unpaid on the provider's page: whatever ended it, the shopper cancelled.
        if (status.status === 'completed') applyStatus(cancelledReference, status);
        else useCheckoutStore.getState().failPayment(CARD_PAYMENT_CANCELLED);
      })
      .catch((error: unknown) => {
        useCheckoutStore.getState().failPayment(errorMessage(error, RETURN_PAGE_MESSAGES.notConfirmed));
      });
  }, [cancelledReference, location.pathname, location.search, location.hash, navigate]);

  // Coming back to the drawer with a started payment.
  useEffect(() => {
    if (!isOpen || !startedReference || step !== 'payment' || cancelledReference) return;
    const controller = new AbortController();
    getPaymentStatus(startedReference, startedToken, controller.signal)
      .then((status) => applyStatus(startedReference, status))
      .catch(() => undefined);
    return () => controller.abort();
  }, [isOpen, startedReference, startedToken, step, cancelledReference]);
}
