import { Navigate, redirect, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { paths } from '#web/config/paths';
import { PaymentReturn } from '#web/features/checkout/components/payment-return';

const referenceIn = (params: URLSearchParams) => params.get('reference')?.trim() || undefined;

/**
 * /success?reference=...&token=...: the payment-return page (the token, the checkout's access
 * token, lets it name the order and link to its page). Without a reference, back to the store.
 */
export default function StorefrontSuccessPage() {
  const [params] = useSearchParams();
  const reference = referenceIn(params);
  if (!reference) return <Navigate to={paths.home.getHref()} replace />;
  const token = params.get('token')?.trim() || null;
  return <PaymentReturn key={reference} reference={reference} token={token} />;
}

/** On a full load the server sends a visitor without a reference to the store itself. */
export function loader({ request }: LoaderFunctionArgs) {
  if (!referenceIn(new URL(request.url).searchParams)) throw redirect(paths.home.getHref());
  return null;
}
