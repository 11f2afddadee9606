import { StorefrontLayout } from '#web/app/layouts/storefront-layout';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import { shopInfoQueryOptions } from '#web/lib/shop-info';

export default StorefrontLayout;

/** Every storefront page shows the shop's contact address (footer). */
export const loader = queriesLoader((queryClient) => queryClient.prefetchQuery(shopInfoQueryOptions()));
export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
