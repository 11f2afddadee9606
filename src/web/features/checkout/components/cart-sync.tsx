import { useEffect } from 'react';
import type { LiveEventData } from '#common/live-event-types';
import { useHydrated } from '#web/lib/after-hydration';
import { useLiveEvents } from '#web/lib/live-events';
import { CART_STORAGE_KEY, useCartStore } from '../stores/cart-store';
import { CHECKOUT_STORAGE_KEY } from '../stores/checkout-storage';

/** The closing code (and the checkout store it needs) loads when a cart is closed, not before. */
const loadCartClosed = () => import('../utils/cart-closed');

const CART_TOPIC_PREFIX = 'cart:';

/**
 * Keeps every tab of this browser on one cart, and closes it everywhere once its checkout is paid
 *. Mounted once in the storefront layout; renders nothing.
 * - Another tab changed the cart (a line, or a new cart after an order): this tab reads it again,
 *   so a stale tab never writes the paid lines back.
 * - Another tab showed an order's confirmation for this (now empty) cart: this tab shows it too.
 * - While the cart holds lines, it listens on its live topic `cart:<cartId>`: `cart.closed` (the
 *   server confirmed a payment of this cart's checkout, wherever it was paid) empties the cart; a
 *   tab that had that checkout open shows its confirmation.
 */
export function CartSync() {
  const hydrated = useHydrated();
  const cartId = useCartStore((s) => s.cartId);
  const hasItems = useCartStore((s) => s.items.length > 0);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== localStorage) return;
      if (event.key === CART_STORAGE_KEY) void useCartStore.persist.rehydrate();
      if (event.key === CHECKOUT_STORAGE_KEY && event.newValue?.includes('"step":"confirmation"')) {
        const value = event.newValue;
        void loadCartClosed().then((m) => m.adoptConfirmationFromOtherTab(value));
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  useLiveEvents(
    { [`${CART_TOPIC_PREFIX}${cartId}`]: [] },
    {
      enabled: hydrated && hasItems,
      onEvent: (event: LiveEventData) => {
        if (event.type !== 'cart.closed' || !event.topic.startsWith(CART_TOPIC_PREFIX)) return;
        const closedCartId = event.topic.slice(CART_TOPIC_PREFIX.length);
        void loadCartClosed().then((m) => m.closeCartEverywhere(closedCartId, event.data));
      },
    },
  );
  return null;
}
