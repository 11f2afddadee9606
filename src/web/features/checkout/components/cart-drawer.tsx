import { lazy, Suspense, useEffect, useState } from 'react';
import { useCartStore } from '../stores/cart-store';
import { usePaymentOutcome } from '../hooks/use-payment-return';

const loadPanel = () => import('./cart-drawer-panel');
const CartDrawerPanel = lazy(() => loadPanel().then((m) => ({ default: m.CartDrawerPanel })));

/**
 * Mounted once in the storefront layout; the header's cart button opens it. Always listens for a
 * card payment's outcome (usePaymentOutcome); the drawer itself (steps, forms, validation) is its
 * own chunk, fetched when the browser is idle or on first open.
 */
export function CartDrawer() {
  const isOpen = useCartStore((s) => s.isOpen);
  const [wasOpened, setWasOpened] = useState(isOpen);
  if (isOpen && !wasOpened) setWasOpened(true);
  usePaymentOutcome(isOpen);

  useEffect(() => {
    const preload = () => void loadPanel().catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const handle = window.requestIdleCallback(preload, { timeout: 4000 });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = setTimeout(preload, 1500);
    return () => clearTimeout(handle);
  }, []);

  if (!wasOpened) return null;
  return (
    <Suspense fallback={null}>
      <CartDrawerPanel />
    </Suspense>
  );
}
