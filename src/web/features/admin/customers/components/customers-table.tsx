import { Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CUSTOMER_SORTS, CUSTOMER_SORT_LABELS, type AdminCustomer } from '#common/schemas/admin-customers';
import { formatUsd } from '#common/money';
import { Alert } from '#web/components/ui/alert';
import { Pagination } from '#web/components/ui/pagination';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { Table, TableBody, TableHead, TableRow, Td, Th } from '#web/components/ui/table';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { Toolbar } from '#web/features/admin/shared/components/toolbar';
import { formatDate } from '#web/features/admin/shared/format';
import { useDebouncedValue } from '#web/features/admin/shared/hooks/use-debounced-value';
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

/** Customers (orders grouped by shipping email): search, sort, pages. */
export function CustomersTable() {
  const [searchText, setSearchText] = useState('');
  const [sort, setSort] = useState<CustomerSort>('last_order');
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(searchText.trim());

  useLiveEvents({ 'admin:orders': [customerKeys.all] });
  const customers = useCustomers({ search, sort, page });
  const rows = customers.data?.items ?? [];

  return (
    <div>
      <Toolbar>
        <SearchInput
          label="Search customers"
          placeholder="Search by name or email..."
          value={searchText}
          onChange={(e) => {
            setSearchText(e.target.value);
            setPage(1);
          }}
          wrapperClassName="sm:w-80"
        />
        <label className="flex items-center gap-2 text-sm text-stone-500 sm:ml-auto">
          <span className="shrink-0">Sort by</span>
          <Select
            aria-label="Sort by"
            size="sm"
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as CustomerSort);
              setPage(1);
            }}
            wrapperClassName="w-full sm:w-48"
          >
            {CUSTOMER_SORTS.map((s) => (
              <option key={s} value={s}>
                {CUSTOMER_SORT_LABELS[s]}
              </option>
            ))}
          </Select>
        </label>
      </Toolbar>

      {customers.isError ? (
        <Alert variant="error">{errorMessage(customers.error, 'Failed to load customers')}</Alert>
      ) : customers.isPending ? (
        <div role="status" className="rounded-2xl bg-white p-4 ring-1 ring-stone-200/80">
          <span className="sr-only">Loading customers</span>
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="flex items-center gap-4 border-b border-stone-100 py-3 last:border-0">
              <Skeleton className="size-9 rounded-full" />
              <Skeleton className="h-4 w-32" />
              <Skeleton className="ml-auto h-4 w-48" />
            </div>
          ))}
        </div>
      ) : rows.length === 0 ? (
        <div className="rounded-2xl bg-white ring-1 ring-stone-200/80">
          <EmptyState icon={Users} title="No customers found">
            {search ? 'Try another name or email.' : 'Customers appear here once they order.'}
          </EmptyState>
        </div>
      ) : (
        <div className={customers.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
          <div className="hidden md:block">
            <Table label="Customers" minWidth="44rem">
              <TableHead>
                <tr>
                  <Th>Customer</Th>
                  <Th>Email</Th>
                  <Th className="text-right">Total Orders</Th>
                  <Th className="text-right">Total Spent</Th>
                  <Th>Last Order</Th>
                </tr>
              </TableHead>
              <TableBody>
                {rows.map((c) => (
                  <TableRow key={c.email}>
                    <Td>
                      <span className="flex items-center gap-3">
                        <span
                          aria-hidden="true"
                          className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-rose-50 text-xs font-semibold text-rose-700"
                        >
                          {initials(c)}
                        </span>
                        <OrdersLink
                          customer={c}
                          className="font-medium text-stone-950 hover:text-rose-700 hover:underline"
                        />
                      </span>
                    </Td>
                    <Td>
                      <a href={`mailto:${c.email}`} className="hover:text-rose-700 hover:underline">
                        {c.email}
                      </a>
                    </Td>
                    <Td className="text-right tabular-nums">
                      <Link
                        to={ordersHref(c)}
                        className="hover:text-rose-700 hover:underline"
                        aria-label={`${c.totalOrders} order${c.totalOrders === 1 ? '' : 's'} by ${fullName(c)}`}
                      >
                        {c.totalOrders}
                      </Link>
                    </Td>
                    <Td className="text-right font-medium text-stone-950 tabular-nums">
                      {formatUsd(c.totalSpentCents)}
                    </Td>
                    <Td className="whitespace-nowrap">{formatDate(c.lastOrderAt)}</Td>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
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
          {customers.data ? (
            <Pagination
              page={customers.data.page}
              pageSize={customers.data.pageSize}
              total={customers.data.total}
              hasMore={customers.data.hasMore}
              noun="customers"
              onPageChange={setPage}
              isBusy={customers.isFetching}
            />
          ) : null}
        </div>
      )}
    </div>
  );
}
