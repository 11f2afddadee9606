/** Where the checkout store keeps its state in localStorage (checkout-store.ts; the Privacy page names it). */
export const CHECKOUT_STORAGE_KEY = 'aelo-checkout';
export const CHECKOUT_STORAGE_VERSION = 1;

/**
 * Whether the kept checkout remembers a card payment sent to the provider's page, read without
 * loading the store: the cart drawer loads the payment-outcome code for such a visitor only.
 */
export function hasStartedPayment(): boolean {
  try {
    const raw = localStorage.getItem(CHECKOUT_STORAGE_KEY);
    if (!raw) return false;
    const kept = JSON.parse(raw) as { state?: { startedPayment?: unknown } } | null;
    return Boolean(kept?.state?.startedPayment);
  } catch {
    return false;
  }
}
