import { lazy, Suspense, useState } from 'react';
import { useCartStore } from '../stores/cart-store';
import { usePaymentOutcome } from '../hooks/use-payment-return';

const loadPanel = () => import('./cart-drawer-panel');

/**
 * Fetches the drawer's code (steps, forms, validation) when the shopper shows intent (points at or
 * focuses the cart button), so it is there by the click without being part of the first load.
 */
export function preloadCartDrawer(): void {
  void loadPanel().catch(() => undefined);
}

const CartDrawerPanel = lazy(() => loadPanel().then((m) => ({ default: m.CartDrawerPanel })));

/**
 * Mounted once in the storefront layout; the header's cart button opens it. Always listens for a
 * card payment's outcome (usePaymentOutcome); the drawer itself (steps, forms, validation) is its
 * own chunk, fetched on intent (preloadCartDrawer) or on first open, never with the first load.
 */
export function CartDrawer() {
  const isOpen = useCartStore((s) => s.isOpen);
  const [wasOpened, setWasOpened] = useState(isOpen);
  if (isOpen && !wasOpened) setWasOpened(true);
  usePaymentOutcome(isOpen);

  if (!wasOpened) return null;
  return (
    <Suspense fallback={null}>
      <CartDrawerPanel />
    </Suspense>
  );
}
