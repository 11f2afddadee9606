import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useHydrated } from '#web/lib/after-hydration';
import { lazyWithPreload } from '#web/lib/lazy-with-preload';
import { useCartStore } from '../stores/cart-store';
import { hasStartedPayment } from '../stores/checkout-storage';

const CartDrawerPanel = lazyWithPreload(() => import('./cart-drawer-panel').then((m) => m.CartDrawerPanel));

/**
 * Fetches the drawer's code (steps, forms, validation) when the shopper shows intent (points at or
 * focuses the cart button), so it is there by the click without being part of the first load.
 */
export const preloadCartDrawer = CartDrawerPanel.prefetch;

const PaymentOutcome = lazy(() => import('./payment-outcome').then((m) => ({ default: m.PaymentOutcome })));

/**
 * Mounted once in the storefront layout; the header's cart button opens it. The drawer itself
 * (steps, forms, validation) is its own chunk, fetched on intent (preloadCartDrawer) or on first
 * open, never with the first load. A card payment's outcome (PaymentOutcome: the success message
 * of another window, the provider's cancel link, the status on coming back) is listened for from
 * the moment one can exist: the drawer was opened, the address is the cancel link, or the kept
 * checkout remembers a started payment; a first visit loads none of that code.
 */
export function CartDrawer() {
  const isOpen = useCartStore((s) => s.isOpen);
  const [wasOpened, setWasOpened] = useState(isOpen);
  // Mounted once its code is in (lazyWithPreload's whenLoaded), not at the click.
  useEffect(() => {
    if (isOpen && !wasOpened) CartDrawerPanel.whenLoaded(() => setWasOpened(true));
  }, [isOpen, wasOpened]);

  const hydrated = useHydrated();
  const { search } = useLocation();
  const [listening, setListening] = useState(false);
  if (
    hydrated &&
    !listening &&
    (wasOpened || new URLSearchParams(search).get('checkout') === 'cancelled' || hasStartedPayment())
  ) {
    setListening(true);
  }

  return (
    <>
      {listening ? (
        <Suspense fallback={null}>
          <PaymentOutcome isOpen={isOpen} />
        </Suspense>
      ) : null}
      {wasOpened ? (
        <Suspense fallback={null}>
          <CartDrawerPanel />
        </Suspense>
      ) : null}
    </>
  );
}
