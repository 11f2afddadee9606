import { ReceiptText } from 'lucide-react';
import { ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from '#common/schemas/admin-orders';
import { Alert } from '#web/components/ui/alert';
import { useSearchParams } from 'react-router';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { useLiveEvents } from '#web/lib/live-events';
import { adminOrderKeys } from '../api/orders-keys';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { ListPage } from '#web/features/admin/shared/components/list-page';
import { useListParams } from '#web/features/admin/shared/hooks/use-list-params';
import { useFlash } from '#web/features/admin/shared/hooks/use-flash';
import { useOrders } from '../api/get-orders';
import { OrderCard } from './order-card';

/** Orders, newest first: search, status filter, expandable cards, pages; live on 'admin:orders'. */
export function OrdersList() {
  // A customer row links here searched by its email (?search=).
  const [params] = useSearchParams();
  const list = useListParams<{ status: 'all' | OrderStatus }>(
    { status: 'all' },
    { initialSearch: params.get('search') ?? '' },
  );
  const { search, page } = list;
  const { status } = list.filters;
  const [flash, setFlash] = useFlash();

  useLiveEvents({ 'admin:orders': [adminOrderKeys.all] });
  const orders = useOrders({ search, status, page });
  const rows = orders.data?.items ?? [];

  return (
    <ListPage
      toolbar={
        <>
          <SearchInput
            label="Search orders"
            placeholder="Search by order, name or email..."
            value={list.searchText}
            onChange={(e) => list.setSearchText(e.target.value)}
            wrapperClassName="sm:w-80"
          />
          <Select
            aria-label="Status"
            size="sm"
            value={status}
            onChange={(e) => list.setFilter('status', e.target.value as 'all' | OrderStatus)}
            wrapperClassName="sm:w-44"
          >
            <option value="all">All Status</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ORDER_STATUS_LABELS[s]}
              </option>
            ))}
          </Select>
        </>
      }
      notice={
        flash ? (
          <Alert variant="success" className="mb-4">
            {flash}
          </Alert>
        ) : null
      }
      query={orders}
      error="Failed to load orders"
      loading={
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading orders</span>
          {Array.from({ length: 5 }, (_, i) => (
            <div
              key={i}
              className="flex items-center gap-4 rounded-2xl bg-white p-4 ring-1 ring-stone-200/80"
            >
              <Skeleton className="size-10 rounded-full" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-56" />
              </div>
              <Skeleton className="h-4 w-16" />
            </div>
          ))}
        </div>
      }
      isEmpty={rows.length === 0}
      empty={
        <EmptyState icon={ReceiptText} title="No orders found">
          {search || status !== 'all' ? 'Try another search or status.' : 'Paid orders will appear here.'}
        </EmptyState>
      }
      noun="orders"
      onPageChange={list.setPage}
    >
      <div className="space-y-3">
        {rows.map((order) => (
          <OrderCard key={order.id} order={order} onDone={setFlash} />
        ))}
      </div>
    </ListPage>
  );
}
