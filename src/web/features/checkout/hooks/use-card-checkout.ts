import {
  CHECKOUT_MESSAGES,
  CHECKOUT_SERVER_MESSAGES,
  validateShippingInfo,
  type CheckoutInput,
} from '#common/schemas/checkout';
import { useCartStore, type CartItem } from '../stores/cart-store';
import { cancelPayment } from '../api/cancel-payment';
import { useCreateCheckout } from '../api/create-checkout';
import { getPaymentStatus } from '../api/get-payment-status';
import { useCheckoutStore } from '../stores/checkout-store';
import { validateAccountDraft } from '../utils/account-draft';
import { checkoutErrorMessage } from '../utils/checkout-error';
import { closePaidCart, confirmationFrom, isCartAlreadyPaid, placeOrder } from '../utils/order-placed';

/** Cart lines as the server wants them: ids, options and quantities, never prices. */
export function checkoutItems(items: readonly CartItem[]): CheckoutInput['items'] {
  return items.map((item) => ({
    productId: item.productId,
    size: item.selectedSize === '' ? null : (item.selectedSize as CheckoutInput['items'][number]['size']),
    color: item.selectedColor === '' ? null : item.selectedColor,
    quantity: item.quantity,
  }));
}

/**
 * What every payment method checks first: a cart, valid shipping info and account block (else back
 * to the info step), nothing else in progress. Marks the drawer busy and ends a payment started
 * earlier and left open (it holds stock), unless that one was paid: then its confirmation shows.
 * Null when the checkout cannot go on.
 */
export async function prepareCheckout() {
  const checkout = useCheckoutStore.getState();
  const { items } = useCartStore.getState();
  if (checkout.isBusy) return null;
  if (items.length === 0) {
    checkout.setPaymentError(CHECKOUT_MESSAGES.emptyCart);
    return null;
  }
  const shipping = validateShippingInfo(checkout.shippingInfo);
  if (!shipping.ok) {
    checkout.goTo('info');
    return null;
  }
  const account = validateAccountDraft(checkout.account);
  if (!account.ok) {
    checkout.goTo('info');
    return null;
  }

  checkout.setBusy(true);
  checkout.setPaymentError(null);

  const earlier = checkout.startedPayment;
  if (earlier) {
    const status = await cancelPayment(earlier.reference).catch(() => null);
    if (status?.status === 'completed') {
      // With the access token the status names the order and its page.
      const named = earlier.accessToken
        ? await getPaymentStatus(earlier.reference, earlier.accessToken).catch(() => status)
        : status;
      placeOrder(confirmationFrom(earlier, named));
      return null;
    }
  }
  return { shipping, account, items };
}

/**
 * Where a refused checkout leaves the drawer: a cart already paid for is emptied and said so on
 * the cart step (409, nothing charged again); any other failure stays in payment with its message.
 */
export function checkoutRefused(error: unknown): void {
  if (isCartAlreadyPaid(error)) closePaidCart();
  else useCheckoutStore.getState().failPayment(checkoutErrorMessage(error));
}

/**
 * "Pay with Card": POST /api/checkout with paymentMethod 'card', remember the payment, then hand
 * the browser to the provider's checkout page. The drawer stays busy until the page is left; a
 * failure keeps the checkout in payment with the error.
 */
export function useCardCheckout() {
  const mutation = useCreateCheckout();

  const pay = async () => {
    const ready = await prepareCheckout();
    if (!ready) return;
    const { shipping, account, items } = ready;

    mutation.mutate(
      {
        items: checkoutItems(items),
        shippingInfo: shipping.value,
        paymentMethod: 'card',
        cartId: useCartStore.getState().cartId,
        ...(account.value ? { createAccount: account.value } : {}),
      },
      {
        onSuccess: (response) => {
          if (!response.checkoutUrl) {
            useCheckoutStore.getState().failPayment(CHECKOUT_SERVER_MESSAGES.checkoutSessionFailed);
            return;
          }
          useCheckoutStore.getState().startPayment({
            reference: response.reference,
            accessToken: response.accessToken,
            totalCents: response.amounts.totalCents,
            name: `${shipping.value.firstName} ${shipping.value.lastName}`,
            email: shipping.value.email,
            startedAt: new Date().toISOString(),
          });
          // Busy stays on: the page is about to be replaced by the provider's.
          try {
            window.location.assign(response.checkoutUrl);
          } catch (error) {
            useCheckoutStore.getState().failPayment(checkoutErrorMessage(error));
          }
        },
        onError: checkoutRefused,
      },
    );
  };

  return { pay };
}
