import { Users } from 'lucide-react';
import { Link } from 'react-router';
import { CUSTOMER_SORTS, CUSTOMER_SORT_LABELS, type AdminCustomer } from '#common/schemas/admin-customers';
import { formatUsd } from '#common/money';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { DataTable, type DataColumn } from '#web/features/admin/shared/components/data-table';
import { ListPage, ListSkeleton } from '#web/features/admin/shared/components/list-page';
import { formatDate } from '#web/features/admin/shared/format';
import { useListParams } from '#web/features/admin/shared/hooks/use-list-params';
import { customerKeys } from '../api/customers-keys';
import type { CustomerSort } from '../api/customers-keys';
import { useCustomers } from '../api/get-customers';

function fullName(c: AdminCustomer): string {
  return `${c.firstName} ${c.lastName}`.trim() || '—';
}

/** The orders screen searched by the customer's email: every order they placed. */
function ordersHref(c: AdminCustomer): string {
  return `/admin/orders?${new URLSearchParams({ search: c.email }).toString()}`;
}

function OrdersLink({ customer, className }: { customer: AdminCustomer; className: string }) {
  return (
    <Link to={ordersHref(customer)} className={className}>
      {fullName(customer)}
      <span className="sr-only"> (view orders)</span>
    </Link>
  );
}

function initials(c: AdminCustomer): string {
  const text = `${c.firstName.charAt(0)}${c.lastName.charAt(0)}`.trim() || c.email.charAt(0);
  return text.toUpperCase();
}

const COLUMNS: DataColumn<AdminCustomer>[] = [
  {
    id: 'customer',
    header: 'Customer',
    cell: ({ row: { original: c } }) => (
      <span className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-rose-50 text-xs font-semibold text-rose-700"
        >
          {initials(c)}
        </span>
        <OrdersLink customer={c} className="font-medium text-stone-950 hover:text-rose-700 hover:underline" />
      </span>
    ),
  },
  {
    id: 'email',
    header: 'Email',
    cell: ({ row: { original: c } }) => (
      <a href={`mailto:${c.email}`} className="hover:text-rose-700 hover:underline">
        {c.email}
      </a>
    ),
  },
  {
    id: 'totalOrders',
    header: 'Total Orders',
    meta: { headerClassName: 'text-right', cellClassName: 'text-right tabular-nums' },
    cell: ({ row: { original: c } }) => (
      <Link
        to={ordersHref(c)}
        className="hover:text-rose-700 hover:underline"
        aria-label={`${c.totalOrders} order${c.totalOrders === 1 ? '' : 's'} by ${fullName(c)}`}
      >
        {c.totalOrders}
      </Link>
    ),
  },
  {
    id: 'totalSpent',
    header: 'Total Spent',
    meta: {
      headerClassName: 'text-right',
      cellClassName: 'text-right font-medium text-stone-950 tabular-nums',
    },
    cell: ({ row: { original: c } }) => formatUsd(c.totalSpentCents),
  },
  {
    id: 'lastOrder',
    header: 'Last Order',
    meta: { cellClassName: 'whitespace-nowrap' },
    cell: ({ row: { original: c } }) => formatDate(c.lastOrderAt),
  },
];

/** Customers (orders grouped by shipping email): search, sort, pages. */
export function CustomersTable() {
  const list = useListParams<{ sort: CustomerSort }>({ sort: 'last_order' });
  const { search, page } = list;
  const { sort } = list.filters;

  useLiveEvents({ 'admin:orders': [customerKeys.all] });
  const customers = useCustomers({ search, sort, page });
  const rows = customers.data?.items ?? [];

  return (
    <ListPage
      toolbar={
        <>
          <SearchInput
            label="Search customers"
            placeholder="Search by name or email..."
            value={list.searchText}
            onChange={(e) => list.setSearchText(e.target.value)}
            wrapperClassName="sm:w-80"
          />
          <label className="flex items-center gap-2 text-sm text-stone-500 sm:ml-auto">
            <span className="shrink-0">Sort by</span>
            <Select
              aria-label="Sort by"
              size="sm"
              value={sort}
              onChange={(e) => list.setFilter('sort', e.target.value as CustomerSort)}
              wrapperClassName="w-full sm:w-48"
            >
              {CUSTOMER_SORTS.map((s) => (
                <option key={s} value={s}>
                  {CUSTOMER_SORT_LABELS[s]}
                </option>
              ))}
            </Select>
          </label>
        </>
      }
      query={customers}
      error={errorMessage(customers.error, 'Failed to load customers')}
      loading={
        <ListSkeleton
          label="Loading customers"
          rowClassName="flex items-center gap-4 border-b border-stone-100 py-3 last:border-0"
        >
          <Skeleton className="size-9 rounded-full" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="ml-auto h-4 w-48" />
        </ListSkeleton>
      }
      isEmpty={rows.length === 0}
      empty={
        <EmptyState icon={Users} title="No customers found">
          {search ? 'Try another name or email.' : 'Customers appear here once they order.'}
        </EmptyState>
      }
      noun="customers"
      onPageChange={list.setPage}
    >
      <div className="hidden md:block">
        <DataTable
          label="Customers"
          minWidth="44rem"
          columns={COLUMNS}
          data={rows}
          getRowId={(c) => c.email}
        />
      </div>
      <ul aria-label="Customers" className="space-y-3 md:hidden">
        {rows.map((c) => (
          <li key={c.email} className="rounded-2xl bg-white p-4 ring-1 ring-stone-200/80">
            <div className="flex items-center gap-3">
              <span
                aria-hidden="true"
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-rose-50 text-xs font-semibold text-rose-700"
              >
                {initials(c)}
              </span>
              <div className="min-w-0">
                <OrdersLink
                  customer={c}
                  className="block font-medium [overflow-wrap:anywhere] text-stone-950 hover:text-rose-700 hover:underline"
                />
                <p className="text-sm break-all text-stone-500">{c.email}</p>
              </div>
            </div>
            <dl className="mt-3 grid grid-cols-3 gap-2 border-t border-stone-100 pt-3 text-sm">
              <div>
                <dt className="text-xs text-stone-500">Total Orders</dt>
                <dd className="tabular-nums">{c.totalOrders}</dd>
              </div>
              <div>
                <dt className="text-xs text-stone-500">Total Spent</dt>
                <dd className="font-medium tabular-nums">{formatUsd(c.totalSpentCents)}</dd>
              </div>
              <div>
                <dt className="text-xs text-stone-500">Last Order</dt>
                <dd>{formatDate(c.lastOrderAt)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </ListPage>
  );
}
