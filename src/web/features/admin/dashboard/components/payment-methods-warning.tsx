import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { usePaymentMethods } from '../api/get-payment-methods';

/** Told to the operator first: a shop that can take no payment turns every shopper away. */
export function PaymentMethodsWarning({ settingsHref }: { settingsHref: string }) {
  const { data } = usePaymentMethods();
  if (!data || data.card.enabled || data.crypto.enabled) return null;
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3.5 text-sm text-amber-950"
    >
      <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
      <p>
        <span className="font-semibold">Shoppers cannot pay.</span> No payment method is set up: add your
        Stripe keys in{' '}
        <Link to={settingsHref} className="font-semibold underline underline-offset-2">
          Settings
        </Link>{' '}
        so the checkout opens. Until then the cart tells shoppers checkout is closed.
      </p>
    </div>
  );
}
