import { usePaymentOutcome } from '../hooks/use-payment-return';

/** Listens for a card payment's outcome (usePaymentOutcome); its own chunk, see CartDrawer. */
export function PaymentOutcome({ isOpen }: { isOpen: boolean }) {
  usePaymentOutcome(isOpen);
  return null;
}
