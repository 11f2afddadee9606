import { ReceiptText } from 'lucide-react';
import { useState } from 'react';
import { ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from '#common/schemas/admin-orders';
import { Alert } from '#web/components/ui/alert';
import { Pagination } from '#web/components/ui/pagination';
import { useSearchParams } from 'react-router';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { useLiveEvents } from '#web/lib/live-events';
import { adminOrderKeys } from '../api/orders-keys';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { Toolbar } from '#web/features/admin/shared/components/toolbar';
import { useDebouncedValue } from '#web/features/admin/shared/hooks/use-debounced-value';
import { useFlash } from '#web/features/admin/shared/hooks/use-flash';
import { useOrders } from '../api/get-orders';
import { OrderCard } from './order-card';

/** Orders, newest first: search, status filter, expandable cards, pages; live on 'admin:orders'. */
export function OrdersList() {
  // A customer row links here searched by its email (?search=).
  const [params] = useSearchParams();
  const [searchText, setSearchText] = useState(() => params.get('search') ?? '');
  const [status, setStatus] = useState<'all' | OrderStatus>('all');
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(searchText.trim());
  const [flash, setFlash] = useFlash();

  useLiveEvents({ 'admin:orders': [adminOrderKeys.all] });
  const orders = useOrders({ search, status, page });
  const rows = orders.data?.items ?? [];

  return (
    <div>
      <Toolbar>
        <SearchInput
          label="Search orders"
          placeholder="Search by order, name or email..."
          value={searchText}
          onChange={(e) => {
            setSearchText(e.target.value);
            setPage(1);
          }}
          wrapperClassName="sm:w-80"
        />
        <Select
          aria-label="Status"
          size="sm"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as 'all' | OrderStatus);
            setPage(1);
          }}
          wrapperClassName="sm:w-44"
        >
          <option value="all">All Status</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ORDER_STATUS_LABELS[s]}
            </option>
          ))}
        </Select>
      </Toolbar>

      {flash ? (
        <Alert variant="success" className="mb-4">
          {flash}
        </Alert>
      ) : null}

      {orders.isError ? (
        <Alert variant="error">Failed to load orders</Alert>
      ) : orders.isPending ? (
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
      ) : rows.length === 0 ? (
        <div className="rounded-2xl bg-white ring-1 ring-stone-200/80">
          <EmptyState icon={ReceiptText} title="No orders found">
            {search || status !== 'all' ? 'Try another search or status.' : 'Paid orders will appear here.'}
          </EmptyState>
        </div>
      ) : (
        <div className={orders.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
          <div className="space-y-3">
            {rows.map((order) => (
              <OrderCard key={order.id} order={order} onDone={setFlash} />
            ))}
          </div>
          {orders.data ? (
            <Pagination
              page={orders.data.page}
              pageSize={orders.data.pageSize}
              total={orders.data.total}
              hasMore={orders.data.hasMore}
              noun="orders"
              onPageChange={setPage}
              isBusy={orders.isFetching}
            />
          ) : null}
        </div>
      )}
    </div>
  );
}
