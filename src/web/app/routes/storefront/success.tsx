import { Navigate, useSearchParams } from 'react-router';
import { paths } from '#web/config/paths';
import { PaymentReturn } from '#web/features/checkout/components/payment-return';

/** /success?reference=...: the payment-return page. Without a reference, back to the store. */
export function Component() {
  const [params] = useSearchParams();
  const reference = params.get('reference')?.trim();
  if (!reference) return <Navigate to={paths.home.getHref()} replace />;
  return <PaymentReturn key={reference} reference={reference} />;
}
