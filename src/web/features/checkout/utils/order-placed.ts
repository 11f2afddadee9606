import { shortOrderId } from '#common/format';
import { CHECKOUT_SERVER_MESSAGES, type PaymentStatusResponse } from '#common/schemas/checkout';
import { ApiError } from '#web/lib/api-client';
import { useCartStore } from '../stores/cart-store';
import { useCheckoutStore, type OrderConfirmation } from '../stores/checkout-store';

/** What the checkout knew before the payment was confirmed. */
export type ConfirmationBase = Pick<OrderConfirmation, 'reference' | 'totalCents' | 'name' | 'email'>;

const sitePath = (value: string | null | undefined): string | null =>
  value && value.startsWith('/') && !value.startsWith('//') ? value : null;

/** The confirmation of a paid checkout: what the browser knew, and the order the server names. */
export function confirmationFrom(base: ConfirmationBase, status?: PaymentStatusResponse): OrderConfirmation {
  return {
    ...base,
    orderNumber: status?.order_number ?? (status?.order_id ? shortOrderId(status.order_id) : null),
    orderUrl: sitePath(status?.order_url),
    accountOrderUrl: sitePath(status?.account_order_url),
    ...(status ? { demo: status.demo === true } : {}),
  };
}

/**
 * A payment of this cart's checkout is confirmed: the checkout is closed. The cart is emptied at
 * once (a new cart id), so neither Back, a reload nor closing the drawer leaves the paid items to
 * pay again, and the confirmation step shows.
 */
export function placeOrder(confirmation: OrderConfirmation): void {
  useCartStore.getState().clear();
  useCheckoutStore.getState().confirm(confirmation);
}

/** POST /api/checkout refused a cart whose checkout was already paid (409). */
export function isCartAlreadyPaid(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 409 &&
    error.message === CHECKOUT_SERVER_MESSAGES.cartAlreadyPaid
  );
}

/**
 * This cart's checkout was paid (in another tab, or the server said so): empty the cart, and say
 * so on the cart step. Nothing was charged again.
 */
export function closePaidCart(notice: string = CHECKOUT_SERVER_MESSAGES.cartAlreadyPaid): void {
  useCartStore.getState().clear();
  useCheckoutStore.getState().closeCheckout(notice);
}
