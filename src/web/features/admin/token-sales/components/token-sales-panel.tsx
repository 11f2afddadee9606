import { Coins } from 'lucide-react';
import { formatReceivedAmount, SOL_DECIMALS } from '#common/crypto-amounts';
import { shortHash } from '#common/format';
import { formatUsd } from '#common/money';
import type { AdminTokenPurchase } from '#common/schemas/token-sale';
import { TOKEN_SYMBOL } from '#common/token';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Segmented } from '#web/components/ui/segmented';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { DataTable, type DataColumn } from '#web/features/admin/shared/components/data-table';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { ListPage } from '#web/features/admin/shared/components/list-page';
import { Panel } from '#web/features/admin/shared/components/panel';
import { formatCount, formatDateTime } from '#web/features/admin/shared/format';
import { useListParams } from '#web/features/admin/shared/hooks/use-list-params';
import { useTokenPurchases } from '../api/get-token-purchases';
import type { TokenSalesFilters } from '../api/token-sales-keys';

const STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'completed', label: 'Completed' },
  { value: 'pending', label: 'Pending' },
  { value: 'expired', label: 'Expired' },
] as const;

const STATUS_TONE: Record<AdminTokenPurchase['status'], BadgeTone> = {
  completed: 'green',
  pending: 'orange',
  expired: 'neutral',
};

const STATUS_LABEL: Record<AdminTokenPurchase['status'], string> = {
  completed: 'Completed',
  pending: 'Pending',
  expired: 'Expired',
};

/** '4DkW…QjL': an address or signature short enough for a table cell (the full one in its title). */
function shortKey(value: string): string {
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

function tokens(purchase: Pick<AdminTokenPurchase, 'tokenAmount' | 'tokenDecimals'>): string {
  return formatReceivedAmount(purchase.tokenAmount, purchase.tokenDecimals);
}

const COLUMNS: DataColumn<AdminTokenPurchase>[] = [
  {
    id: 'date',
    header: 'Date',
    meta: { cellClassName: 'whitespace-nowrap text-stone-500' },
    cell: ({ row: { original: p } }) => formatDateTime(p.createdAt),
  },
  {
    id: 'usd',
    header: 'USD',
    meta: { headerClassName: 'text-right', cellClassName: 'text-right tabular-nums' },
    cell: ({ row: { original: p } }) => formatUsd(p.usdCents),
  },
  {
    id: 'sol',
    header: 'SOL',
    meta: { headerClassName: 'text-right', cellClassName: 'text-right tabular-nums' },
    cell: ({ row: { original: p } }) => formatReceivedAmount(p.lamports, SOL_DECIMALS, 4),
  },
  {
    id: 'tokens',
    header: TOKEN_SYMBOL,
    meta: {
      headerClassName: 'text-right',
      cellClassName: 'text-right font-medium text-stone-950 tabular-nums',
    },
    cell: ({ row: { original: p } }) => tokens(p),
  },
  {
    id: 'buyer',
    header: 'Buyer',
    meta: { cellClassName: 'font-mono text-xs' },
    cell: ({ row: { original: p } }) =>
      p.buyer ? <span title={p.userEmail ?? p.buyer}>{shortKey(p.buyer)}</span> : '—',
  },
  {
    id: 'transaction',
    header: 'Transaction',
    meta: { cellClassName: 'font-mono text-xs' },
    cell: ({ row: { original: p } }) =>
      p.signature ? <span title={p.signature}>{shortKey(p.signature)}</span> : '—',
  },
  {
    id: 'status',
    header: 'Status',
    cell: ({ row: { original: p } }) => (
      <Badge tone={STATUS_TONE[p.status]} hasDot>
        {STATUS_LABEL[p.status]}
      </Badge>
    ),
  },
];

/**
 * Buy Token purchases for the shop owner: what was sold from the treasury, for how much SOL, to
 * which wallet, with the transaction; totals over every completed purchase.
 */
export function TokenSalesPanel() {
  const list = useListParams<{ status: TokenSalesFilters['status'] }>({ status: 'all' });
  const { status } = list.filters;
  const query = useTokenPurchases({ status, page: list.page });
  const stats = query.data?.stats;
  const purchases = query.data?.purchases.items ?? [];
  const onStatus = (value: TokenSalesFilters['status']) => list.setFilter('status', value);

  return (
    <Panel
      title="Token sales"
      titleId="token-sales-title"
      actions={
        <>
          {/* Buttons where they fit, a dropdown on a phone. */}
          <div className="hidden sm:block">
            <Segmented label="Status" options={STATUS_FILTERS} value={status} onChange={onStatus} />
          </div>
          <Select
            aria-label="Status"
            size="sm"
            value={status}
            onChange={(e) => onStatus(e.target.value as TokenSalesFilters['status'])}
            wrapperClassName="w-36 sm:hidden"
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </Select>
        </>
      }
      bodyClassName="space-y-4"
    >
      <p className="text-sm text-stone-500">
        {stats
          ? `${formatCount(stats.completed)} completed · ${formatUsd(stats.usdCents)} · ${formatReceivedAmount(stats.tokenAmount, purchases[0]?.tokenDecimals ?? 6)} ${TOKEN_SYMBOL} sold for ${formatReceivedAmount(stats.lamports, SOL_DECIMALS, 4)} SOL`
          : 'Buy Token purchases paid in SOL, with the AELO sent in the same transaction.'}
      </p>
      <ListPage
        query={query}
        pageOf={(data) => data.purchases}
        error={errorMessage(query.error, 'Failed to load token sales')}
        loading={
          <div role="status" className="space-y-3">
            <span className="sr-only">Loading token sales</span>
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
        }
        isEmpty={purchases.length === 0}
        emptyInCard={false}
        empty={
          <EmptyState icon={Coins} title="No token sales found">
            {status === 'all' ? 'Purchases made with Buy Token appear here.' : 'Try another status.'}
          </EmptyState>
        }
        noun="purchases"
        onPageChange={list.setPage}
      >
        <ul aria-label="Token sales" className="space-y-3 md:hidden">
          {purchases.map((p) => (
            <li key={p.id} className="rounded-xl p-3 ring-1 ring-stone-200/80">
              <div className="flex items-center justify-between gap-3">
                <span className="font-semibold text-stone-950 tabular-nums">
                  {tokens(p)} <span className="text-xs font-medium text-stone-500">{TOKEN_SYMBOL}</span>
                </span>
                <Badge tone={STATUS_TONE[p.status]} hasDot>
                  {STATUS_LABEL[p.status]}
                </Badge>
              </div>
              <div className="mt-1.5 flex items-baseline justify-between gap-3 text-xs text-stone-500">
                <span>
                  {formatUsd(p.usdCents)} · {p.buyer ? shortHash(p.buyer) : 'no wallet yet'}
                </span>
                <span>{formatDateTime(p.createdAt)}</span>
              </div>
            </li>
          ))}
        </ul>
        <DataTable
          label="Token sales"
          minWidth="44rem"
          className="hidden md:block"
          columns={COLUMNS}
          data={purchases}
          getRowId={(p) => p.id}
        />
      </ListPage>
    </Panel>
  );
}
