import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';
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
