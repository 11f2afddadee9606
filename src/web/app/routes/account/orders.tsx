import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import { clientData, queriesLoader, revalidateAfterSubmit } from '#web/app/route-data';
import { ALL_ORDERS, ordersQueryOptions } from '#web/features/orders/api/get-orders';
import { OrderList } from '#web/features/orders/components/order-list';

export default function AccountOrdersPage() {
  return (
    <>
      <PageTitle title="Orders" />
      <AccountPageHeader title="Orders" />
      <OrderList />
    </>
  );
}

/** The list as it first shows: every order, no filter (the token's name comes with the layout). */
export const loader = queriesLoader((queryClient) =>
  queryClient.prefetchQuery(ordersQueryOptions(ALL_ORDERS)),
);
export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
