import { Package } from 'lucide-react';
import { useState } from 'react';
import { ORDER_TEXTS, type CustomerOrdersQuery, type OrderAge } from '#common/schemas/customer-orders';
import { Alert } from '#web/components/ui/alert';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { useTokenInfo } from '#web/lib/shop-info';
import { orderKeys, useOrders } from '../api/get-orders';
import { OrderCard } from './order-card';

const STATUSES = [
  { value: 'all', label: 'All orders' },
  { value: 'pending', label: 'Pending' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'completed', label: 'Completed' },
] as const;

const AGES: ReadonlyArray<{ value: 'all' | OrderAge; label: string }> = [
  { value: 'all', label: 'Any time' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: 'older', label: 'Older' },
];

/** The customer's orders with search, status and date filters; refreshed live on their order events. */
export function OrderList() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<CustomerOrdersQuery['status']>('all');
  const [age, setAge] = useState<CustomerOrdersQuery['age']>('all');
  const query = useOrders({ search: search.trim(), status, age });
  const token = useTokenInfo();
  useLiveEvents({ 'orders:me': [orderKeys.all] });

  return (
    <div className="space-y-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          label="Search orders"
          placeholder="Search by order, status or item..."
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          wrapperClassName="sm:flex-1"
        />
        <Select
          aria-label="Status"
          size="sm"
          value={status}
          onChange={(e) => setStatus(e.target.value as typeof status)}
          wrapperClassName="sm:w-40"
        >
          {STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Date"
          size="sm"
          value={age}
          onChange={(e) => setAge(e.target.value as typeof age)}
          wrapperClassName="sm:w-40"
        >
          {AGES.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </Select>
      </div>

      {query.isError ? (
        <Alert variant="error">{errorMessage(query.error, 'Failed to load orders')}</Alert>
      ) : query.isPending ? (
        <div role="status" className="space-y-4">
          <span className="sr-only">Loading orders</span>
          <Skeleton className="h-48 w-full rounded-2xl" />
          <Skeleton className="h-48 w-full rounded-2xl" />
        </div>
      ) : query.data.orders.length === 0 ? (
        <div className="flex flex-col items-center rounded-2xl bg-white px-6 py-14 text-center ring-1 ring-stone-200/80">
          <Package className="size-10 text-stone-300" aria-hidden="true" />
          <p className="mt-3 font-medium text-stone-900">{ORDER_TEXTS.empty}</p>
        </div>
      ) : (
        <div
          className={
            query.isPlaceholderData
              ? 'space-y-4 opacity-60 transition-opacity'
              : 'space-y-4 transition-opacity'
          }
        >
          {query.data.orders.map((order) => (
            <OrderCard key={order.id} order={order} cluster={token?.cluster} />
          ))}
        </div>
      )}
    </div>
  );
}
