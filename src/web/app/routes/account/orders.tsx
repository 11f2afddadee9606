import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
import type { PageHandle } from '#web/app/page-data';
import { ALL_ORDERS, ordersQueryOptions } from '#web/features/orders/api/get-orders';
import { OrderList } from '#web/features/orders/components/order-list';

export function Component() {
  return (
    <>
      <PageTitle title="Orders" />
      <AccountPageHeader title="Orders" />
      <OrderList />
    </>
  );
}

/** The list as it first shows: every order, no filter (the token's name comes with the layout). */
export const handle = {
  prefetch: (queryClient) => queryClient.prefetchQuery(ordersQueryOptions(ALL_ORDERS)),
} satisfies PageHandle;
