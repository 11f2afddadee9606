import { CalendarClock, Coins, Gift, Send, Wallet } from 'lucide-react';
import { useState } from 'react';
import type { AirdropAge, AirdropClaim } from '#common/schemas/admin-airdrops';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { ConfirmDialog } from '#web/components/ui/confirm';
import { SearchInput } from '#web/components/ui/search-input';
import { Segmented } from '#web/components/ui/segmented';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { airdropKeys } from '../api/airdrops-keys';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { DataTable, type DataColumn } from '#web/features/admin/shared/components/data-table';
import { ListPage, ListSkeleton } from '#web/features/admin/shared/components/list-page';
import { formatCount, formatDateTime, formatSol } from '#web/features/admin/shared/format';
import { shortHash } from '#common/format';
import { useListParams } from '#web/features/admin/shared/hooks/use-list-params';
import { useAirdrops } from '../api/get-airdrops';
import { useAirdropPreview } from '../api/get-airdrop-preview';
import { useProcessAirdrop } from '../api/process-airdrop';

const AGE_FILTERS = [
  { value: 'all', label: 'All Time' },
  { value: '24h', label: 'Last 24 Hours' },
  { value: '7d', label: 'Last 7 Days' },
  { value: 'older', label: 'Older' },
] as const;

/** Airdrop claims: process a run, stats, search by wallet, time filter, the claims table. */
export function AirdropManagement() {
  const list = useListParams<{ age: 'all' | AirdropAge }>({ age: 'all' });
  const { search, page } = list;
  const { age } = list.filters;

  useLiveEvents({ 'admin:airdrops': [airdropKeys.all] });
  const airdrops = useAirdrops({ search, age, page });
  const run = useProcessAirdrop();
  const [isConfirming, setIsConfirming] = useState(false);
  const preview = useAirdropPreview(isConfirming);
  const onConfirm = () => {
    setIsConfirming(false);
    run.mutate();
  };
  const claims = airdrops.data?.claims.items ?? [];
  const onAge = (value: 'all' | AirdropAge) => list.setFilter('age', value);
  const stats = airdrops.data?.stats;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 rounded-2xl bg-gradient-to-br from-rose-50 via-white to-white p-5 ring-1 ring-rose-100 sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <div className="flex items-start gap-4">
          <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-rose-600 text-white shadow-sm shadow-rose-900/20">
            <Gift className="size-5" aria-hidden="true" />
          </span>
          <div>
            <h2 className="text-base font-semibold text-stone-950">Run an airdrop</h2>
            <p className="mt-0.5 max-w-md text-sm text-stone-500">
              Pays the current round of rewards to eligible wallets through the rewards engine.
            </p>
            <NextDailyAirdrop at={airdrops.data ? airdrops.data.schedule.nextDailyAt : undefined} />
          </div>
        </div>
        <Button onClick={() => setIsConfirming(true)} isLoading={run.isPending} className="shrink-0">
          {run.isPending ? (
            'Processing...'
          ) : (
            <>
              <Send className="size-4" aria-hidden="true" />
              Process Airdrop
            </>
          )}
        </Button>
      </div>

      <ConfirmDialog
        open={isConfirming}
        id="airdrop-confirm"
        title="Process this airdrop?"
        message={
          preview.isPending ? (
            'Working out the recipients…'
          ) : preview.isSuccess ? (
            <>
              This sends <strong className="text-stone-950">{formatSol(preview.data.totalAmount)} SOL</strong>{' '}
              to <strong className="text-stone-950">{formatCount(preview.data.recipients)}</strong> wallet
              {preview.data.recipients === 1 ? '' : 's'}. Payments on the chain cannot be taken back.
            </>
          ) : (
            'The airdrop cannot be worked out right now.'
          )
        }
        error={preview.isError ? errorMessage(preview.error, 'Failed to process airdrop') : undefined}
        confirmLabel="Process Airdrop"
        isDestructive={false}
        isConfirmDisabled={!preview.isSuccess || preview.data.recipients === 0}
        onConfirm={onConfirm}
        onCancel={() => setIsConfirming(false)}
      />

      {run.isError ? (
        <Alert variant="error">{errorMessage(run.error, 'Failed to process airdrop')}</Alert>
      ) : run.isSuccess ? (
        <Alert variant="success">
          Airdrop processed: {formatCount(run.data.recipients)} recipient
          {run.data.recipients === 1 ? '' : 's'}, {formatSol(run.data.totalAmount)} SOL in total.
        </Alert>
      ) : null}

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Stat title="Total Claims" value={stats ? formatCount(stats.totalClaims) : null} icon={Gift} />
        <Stat title="Total Amount in SOL" value={stats ? formatSol(stats.totalSol) : null} icon={Coins} />
        <Stat title="Unique Wallets" value={stats ? formatCount(stats.uniqueWallets) : null} icon={Wallet} />
      </div>

      <ListPage
        toolbar={
          <>
            <SearchInput
              label="Search by wallet"
              placeholder="Search by wallet..."
              value={list.searchText}
              onChange={(e) => list.setSearchText(e.target.value)}
              wrapperClassName="sm:w-80"
            />
            {/* Buttons where they fit, a dropdown on a phone. */}
            <div className="hidden sm:ml-auto lg:block">
              <Segmented label="Time" options={AGE_FILTERS} value={age} onChange={onAge} />
            </div>
            <Select
              aria-label="Time"
              size="sm"
              value={age}
              onChange={(e) => onAge(e.target.value as 'all' | AirdropAge)}
              wrapperClassName="sm:ml-auto sm:w-44 lg:hidden"
            >
              {AGE_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </Select>
          </>
        }
        query={airdrops}
        pageOf={(data) => data.claims}
        error={errorMessage(airdrops.error, 'Failed to load airdrop claims')}
        loading={
          <ListSkeleton
            label="Loading airdrop claims"
            rows={6}
            rowClassName="flex gap-6 border-b border-stone-100 py-3.5 last:border-0"
          >
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-4 w-16" />
            <Skeleton className="h-4 flex-1" />
          </ListSkeleton>
        }
        isEmpty={claims.length === 0}
        empty={
          <EmptyState icon={Gift} title="No airdrop claims found">
            {search || age !== 'all'
              ? 'Try another wallet or time range.'
              : 'Claims appear here after a run.'}
          </EmptyState>
        }
        noun="claims"
        onPageChange={list.setPage}
      >
        <ul aria-label="Airdrop claims" className="space-y-3 md:hidden">
          {claims.map((claim) => (
            <li key={claim.id} className="rounded-2xl bg-white p-4 ring-1 ring-stone-200/80">
              <div className="flex items-center justify-between gap-3">
                <span className="font-mono text-xs text-stone-900" title={claim.walletAddress}>
                  {shortHash(claim.walletAddress)}
                </span>
                <Badge tone="green" hasDot>
                  Claimed
                </Badge>
              </div>
              <div className="mt-2 flex items-baseline justify-between gap-3">
                <span className="text-lg font-semibold text-stone-950 tabular-nums">
                  {formatSol(claim.amountSol)} <span className="text-xs font-medium text-stone-500">SOL</span>
                </span>
                <span className="text-xs text-stone-500">{formatDateTime(claim.createdAt)}</span>
              </div>
            </li>
          ))}
        </ul>
        <DataTable
          label="Airdrop claims"
          minWidth="36rem"
          className="hidden md:block"
          columns={CLAIM_COLUMNS}
          data={claims}
          getRowId={(claim) => claim.id}
        />
      </ListPage>
    </div>
  );
}

const CLAIM_COLUMNS: DataColumn<AirdropClaim>[] = [
  {
    id: 'wallet',
    header: 'Wallet',
    meta: { cellClassName: 'font-mono text-xs text-stone-900' },
    cell: ({ row: { original: claim } }) => (
      <span title={claim.walletAddress}>{shortHash(claim.walletAddress)}</span>
    ),
  },
  {
    id: 'amount',
    header: 'Amount (SOL)',
    meta: {
      headerClassName: 'text-right',
      cellClassName: 'text-right font-medium text-stone-950 tabular-nums',
    },
    cell: ({ row: { original: claim } }) => formatSol(claim.amountSol),
  },
  {
    id: 'date',
    header: 'Date',
    meta: { cellClassName: 'whitespace-nowrap text-stone-500' },
    cell: ({ row: { original: claim } }) => formatDateTime(claim.createdAt),
  },
  {
    id: 'status',
    header: 'Status',
    cell: () => (
      <Badge tone="green" hasDot>
        Claimed
      </Badge>
    ),
  },
];

function Stat({ title, value, icon: Icon }: { title: string; value: string | null; icon: typeof Gift }) {
  return (
    <div className="flex items-center gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80">
      <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-rose-50 text-rose-600">
        <Icon className="size-5" strokeWidth={1.75} aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="text-sm text-stone-500">{title}</p>
        {value === null ? (
          <Skeleton className="mt-1 h-6 w-16" />
        ) : (
          <p className="text-xl font-semibold tracking-tight text-stone-950 tabular-nums">{value}</p>
        )}
      </div>
    </div>
  );
}

const UTC_DATE_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** When the scheduler pays the daily top 50 next (the server's schedule, in UTC as configured). */
function NextDailyAirdrop({ at }: { at: string | null | undefined }) {
  if (at === undefined) return <Skeleton className="mt-3 h-6 w-64 rounded-xl" />;
  return (
    <p
      className="mt-3 inline-flex max-w-full items-center gap-2 rounded-xl bg-white/80 px-3 py-1 text-xs font-medium text-stone-700 ring-1 ring-rose-100"
      data-next-daily-airdrop={at ?? ''}
    >
      <CalendarClock className="size-3.5 shrink-0 text-rose-600" aria-hidden="true" />
      {at ? (
        <span>
          Next daily airdrop:{' '}
          <time dateTime={at} className="text-stone-950 tabular-nums">
            {UTC_DATE_TIME.format(new Date(at))} UTC
          </time>
        </span>
      ) : (
        <span>Daily airdrops start once the token and the treasury key are configured</span>
      )}
    </p>
  );
}
