import { getPaymentStatus } from '../api/get-payment-status';
import { useCartStore } from '../stores/cart-store';
import { useCheckoutStore } from '../stores/checkout-store';
import { confirmationFrom, placeOrder } from './order-placed';

/** Said on the cart step of a tab whose cart was paid for elsewhere (another tab or window). */
export const CART_CLOSED_ELSEWHERE =
  'This cart was paid for in another window, so it is now empty. Your order confirmation is on its way by email.';

const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;

/** The reference a `cart.closed` event names (data `{ reference, orderId }`). */
function closedReference(data: unknown): string | null {
  const reference = asRecord(data)?.reference;
  return typeof reference === 'string' && reference !== '' ? reference : null;
}

/**
 * Another tab of this browser shows an order's confirmation (its checkout store was written): if
 * this tab's cart is empty (that order's payment emptied the shared cart), show it here too.
 */
export async function adoptConfirmationFromOtherTab(rawStoredValue: string): Promise<void> {
  let kept: unknown;
  try {
    kept = asRecord(JSON.parse(rawStoredValue))?.state;
  } catch {
    return;
  }
  if (asRecord(kept)?.step !== 'confirmation') return;
  const keptReference = asRecord(asRecord(kept)?.confirmation)?.reference;
  await useCartStore.persist.rehydrate();
  if (useCartStore.getState().items.length > 0) return;
  const current = useCheckoutStore.getState();
  if (current.step === 'confirmation' && current.confirmation?.reference === keptReference) return;
  // The stored value, read and checked the store's own way.
  await useCheckoutStore.persist.rehydrate();
}

/**
 * The server confirmed a payment of cart `closedCartId`'s checkout: empty that cart here (unless
 * another tab already moved this browser to a new cart), and show the order's confirmation where
 * this checkout was open.
 */
export async function closeCartEverywhere(closedCartId: string, data: unknown): Promise<void> {
  const reference = closedReference(data);
  // Another tab may already have emptied it and started a new cart: take that one.
  await useCartStore.persist.rehydrate();
  const cart = useCartStore.getState();
  const checkout = useCheckoutStore.getState();
  if (cart.cartId === closedCartId && cart.items.length > 0) cart.clear();
  if (checkout.step === 'confirmation' && checkout.confirmation?.reference === reference) return;

  const started = checkout.startedPayment;
  if (reference && started?.reference === reference) {
    const status = await getPaymentStatus(reference, started.accessToken).catch(() => undefined);
    placeOrder(confirmationFrom(started, status));
    return;
  }
  if (checkout.step === 'info' || checkout.step === 'payment') checkout.closeCheckout(CART_CLOSED_ELSEWHERE);
}
