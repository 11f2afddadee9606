import { useParams, useSearchParams } from 'react-router';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import { PageTitle } from '#web/components/page-title';
import { guestOrderQueryOptions } from '#web/features/guest-order/api/get-guest-order';
import { GuestOrderView } from '#web/features/guest-order/components/guest-order-view';

export default function StorefrontGuestOrderPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  return (
    <div className="flex-1 bg-stone-50 px-5 py-12 sm:px-8 sm:py-16">
      <PageTitle title="Your order" />
      <div className="mx-auto max-w-2xl">
        <GuestOrderView id={id} token={params.get('token') ?? ''} />
      </div>
    </div>
  );
}

/** The order arrives with the page's HTML (an unknown link's error is left to the browser to show). */
export const loader = queriesLoader((queryClient, { params, url }) =>
  queryClient.prefetchQuery(guestOrderQueryOptions(params.id ?? '', url.searchParams.get('token') ?? '')),
);
export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
