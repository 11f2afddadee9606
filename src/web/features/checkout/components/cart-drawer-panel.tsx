import { ArrowLeft, ArrowRight } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { CHECKOUT_MESSAGES, validateShippingInfo } from '#common/schemas/checkout';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Drawer, DrawerHeader } from '#web/components/ui/dialog';
import { useCheckoutConfig } from '../api/get-checkout-config';
import { CartTotalsList } from './cart-totals';
import { selectItemCount, useCartStore } from '../stores/cart-store';
import { CHECKOUT_STEPS, useCheckoutStore, type CheckoutStep } from '../stores/checkout-store';
import { CartStep } from './cart-step';
import { ConfirmationStep } from './confirmation-step';
import { INFO_FORM_ID, InfoStep } from './info-step';
import { PaymentStep } from './payment-step';
import { StepIndicator } from './step-indicator';

const TITLE_ID = 'cart-drawer-title';

function Footer({ children }: { children: ReactNode }) {
  return (
    <div className="shrink-0 border-t border-stone-100 bg-white px-5 pt-4 pb-[max(1rem,env(safe-area-inset-bottom))]">
      {children}
    </div>
  );
}

function BackButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <Button variant="outline" size="lg" onClick={onClick} disabled={disabled} className="shrink-0 px-4.5">
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back
    </Button>
  );
}

/**
 * The cart drawer and its four checkout steps (spec §2, §4): Cart -> Info -> Payment ->
 * Confirmation, with a step indicator. Loaded on first use by CartDrawer.
 */
/** The cart's words when the shop can take no payment at all (no card keys, no crypto). */
export const CANNOT_PAY_TEXT =
  "Checkout is closed for the moment: this shop can't take payments right now. Your cart is saved, so you can come back to it.";

export function CartDrawerPanel() {
  const isOpen = useCartStore((s) => s.isOpen);
  const close = useCartStore((s) => s.close);
  const clearCart = useCartStore((s) => s.clear);
  const itemCount = useCartStore(selectItemCount);
  const isEmpty = useCartStore((s) => s.items.length === 0);

  const storedStep = useCheckoutStore((s) => s.step);
  const confirmation = useCheckoutStore((s) => s.confirmation);
  const hasValidInfo = useCheckoutStore((s) => validateShippingInfo(s.shippingInfo).ok);
  const isBusy = useCheckoutStore((s) => s.isBusy);
  const goTo = useCheckoutStore((s) => s.goTo);
  const back = useCheckoutStore((s) => s.back);
  // Said before the shopper types an address: no way to pay means no checkout (the cart is kept).
  const config = useCheckoutConfig({ enabled: isOpen });
  const cannotPay = config.data ? !config.data.card.enabled && !config.data.crypto.enabled : false;
  const finish = useCheckoutStore((s) => s.finish);
  const cartError = useCheckoutStore((s) => (s.step === 'cart' ? s.paymentError : null));
  const cartNotice = useCheckoutStore((s) => (s.step === 'cart' ? s.notice : null));
  const setPaymentError = useCheckoutStore((s) => s.setPaymentError);

  // Info and payment need a non-empty cart, payment valid info; confirmation needs an order to
  // confirm, and gives way to a new cart (the paid one was emptied when the payment confirmed).
  let step: CheckoutStep = storedStep;
  if (step === 'confirmation' && !confirmation) step = isEmpty ? 'cart' : 'payment';
  if (step === 'confirmation' && !isEmpty) step = 'cart';
  if ((step === 'info' || step === 'payment') && isEmpty) step = 'cart';
  if (step === 'payment' && !hasValidInfo) step = 'info';
  // Keep the stored step in line with what is shown (e.g. the cart was emptied in another tab).
  useEffect(() => {
    if (step !== storedStep) goTo(step);
  }, [step, storedStep, goTo]);
  const stepIndex = CHECKOUT_STEPS.findIndex((s) => s.key === step);
  const stepLabel = CHECKOUT_STEPS[stepIndex]?.label ?? '';

  // A new step: back to its top, and focus on it so keyboard and screen-reader users follow.
  const bodyRef = useRef<HTMLDivElement>(null);
  const previousStep = useRef(step);
  useEffect(() => {
    if (previousStep.current === step) return;
    previousStep.current = step;
    const body = bodyRef.current;
    if (!body) return;
    body.scrollTop = 0;
    body.focus({ preventScroll: true });
  }, [step]);

  const toInfo = () => {
    if (isEmpty) {
      setPaymentError(CHECKOUT_MESSAGES.emptyCart);
      return;
    }
    goTo('info');
  };

  const continueShopping = () => {
    clearCart();
    finish();
    close();
  };

  return (
    <Drawer
      open={isOpen}
      onClose={close}
      side="right"
      aria-labelledby={TITLE_ID}
      id="cart-drawer"
      className="w-full! sm:w-[28rem]! sm:max-w-[calc(100vw-2.5rem)]!"
    >
      <DrawerHeader onClose={close} closeLabel="Close cart">
        <h2
          id={TITLE_ID}
          className="flex items-baseline gap-2 text-lg font-semibold tracking-tight text-stone-950"
        >
          Your Cart
          {itemCount > 0 && step !== 'confirmation' ? (
            <span className="text-sm font-normal text-stone-500 tabular-nums">
              {itemCount} {itemCount === 1 ? 'item' : 'items'}
            </span>
          ) : null}
        </h2>
      </DrawerHeader>
      <StepIndicator current={step} />

      <div
        ref={bodyRef}
        tabIndex={-1}
        role="region"
        aria-label={`Step ${stepIndex + 1} of ${CHECKOUT_STEPS.length}: ${stepLabel}`}
        aria-busy={isBusy || undefined}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 py-5 outline-none"
      >
        {cartError && step === 'cart' ? (
          <Alert variant="error" className="mb-4">
            {cartError}
          </Alert>
        ) : null}
        {cartNotice && step === 'cart' ? (
          <Alert variant="info" className="mb-4">
            {cartNotice}
          </Alert>
        ) : null}
        {step === 'cart' ? <CartStep isEmpty={isEmpty} isBusy={isBusy} /> : null}
        {step === 'info' ? <InfoStep onValid={() => goTo('payment')} /> : null}
        {step === 'payment' ? <PaymentStep /> : null}
        {step === 'confirmation' && confirmation ? (
          <ConfirmationStep confirmation={confirmation} onLeave={close} />
        ) : null}
      </div>

      {step === 'cart' && !isEmpty ? (
        <Footer>
          <CartTotalsList showFreeShippingHint />
          {cannotPay ? (
            <Alert variant="info" className="mt-4">
              {CANNOT_PAY_TEXT}
            </Alert>
          ) : null}
          <Button size="lg" fullWidth className="mt-4" onClick={toInfo} disabled={isBusy || cannotPay}>
            Checkout
            <ArrowRight className="size-4" aria-hidden="true" />
          </Button>
        </Footer>
      ) : null}
      {step === 'cart' && isEmpty ? (
        <Footer>
          <Button size="lg" variant="secondary" fullWidth onClick={close}>
            Continue Shopping
          </Button>
        </Footer>
      ) : null}
      {step === 'info' ? (
        <Footer>
          <div className="flex gap-3">
            <BackButton onClick={back} />
            <Button type="submit" form={INFO_FORM_ID} size="lg" className="min-w-0 flex-1 px-4">
              Continue to Payment
            </Button>
          </div>
        </Footer>
      ) : null}
      {step === 'payment' ? (
        <Footer>
          <BackButton onClick={back} disabled={isBusy} />
        </Footer>
      ) : null}
      {step === 'confirmation' ? (
        // No Back: the checkout is paid and closed; nothing is left to pay.
        <Footer>
          <Button size="lg" variant="secondary" fullWidth onClick={continueShopping}>
            Continue Shopping
          </Button>
        </Footer>
      ) : null}
    </Drawer>
  );
}
