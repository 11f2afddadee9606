import type { OrderConfirmation } from '../stores/checkout-store';

/**
 * Where "View Order Status" goes: the account's order page for a signed-in customer whose order it
 * is, else the guest order page (the signed link the order mail carries). Never the sign-in page.
 */
export function orderStatusHref(
  order: Pick<OrderConfirmation, 'orderUrl' | 'accountOrderUrl'>,
  isSignedIn: boolean,
): string | null {
  return (isSignedIn ? order.accountOrderUrl : null) ?? order.orderUrl;
}
