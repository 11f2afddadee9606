import { useQueryClient } from '@tanstack/react-query';
import { cn } from '#web/lib/cn';
import { ScrollText } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import { AuditEntrySchema, type AuditEntry } from '#common/schemas/admin-audit';
import { Badge } from '#web/components/ui/badge';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { auditKeys } from '../api/audit-keys';
import { auditActionTitle, describeAudit } from '#web/features/admin/shared/audit';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { DataTable, type DataColumn } from '#web/features/admin/shared/components/data-table';
import { ListPage, ListSkeleton } from '#web/features/admin/shared/components/list-page';
import { formatDateTime } from '#web/features/admin/shared/format';
import { useListParams } from '#web/features/admin/shared/hooks/use-list-params';
import { useAuditActions } from '../api/get-audit-actions';
import { prependAuditEntry, useAuditLog } from '../api/get-audit-log';

const FRESH_MS = 4000;

const COLUMNS: DataColumn<AuditEntry>[] = [
  {
    id: 'timestamp',
    header: 'Timestamp',
    meta: { headerClassName: 'w-48', cellClassName: 'whitespace-nowrap text-stone-500 tabular-nums' },
    cell: ({ row: { original: entry } }) => (
      <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
    ),
  },
  {
    id: 'action',
    header: 'Action',
    meta: { headerClassName: 'w-56' },
    cell: ({ row: { original: entry } }) => <ActionCell entry={entry} />,
  },
  {
    id: 'details',
    header: 'Details',
    cell: ({ row: { original: entry } }) => <Details entry={entry} />,
  },
];

/** The audit log: search, action filter, newest first; new entries slide in at the top live. */
export function AuditLog() {
  const queryClient = useQueryClient();
  const list = useListParams({ action: 'all' });
  const { search, page } = list;
  const { action } = list.filters;
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());

  useLiveEvents(
    { 'admin:audit': [auditKeys.all] },
    {
      onEvent: (event) => {
        if (event.type !== 'audit.logged') return;
        const parsed = AuditEntrySchema.safeParse(event.data);
        if (!parsed.success) return;
        prependAuditEntry(queryClient, parsed.data);
        setFresh((prev) => new Set(prev).add(parsed.data.id));
      },
    },
  );
  useEffect(() => {
    if (fresh.size === 0) return;
    const timer = setTimeout(() => setFresh(new Set()), FRESH_MS);
    return () => clearTimeout(timer);
  }, [fresh]);

  const log = useAuditLog({ search, action, page });
  const actions = useAuditActions();
  const rows = log.data?.items ?? [];

  return (
    <ListPage
      toolbar={
        <>
          <SearchInput
            label="Search audit log"
            placeholder="Search actions and details..."
            value={list.searchText}
            onChange={(e) => list.setSearchText(e.target.value)}
            wrapperClassName="sm:w-80"
          />
          <Select
            aria-label="Action"
            size="sm"
            value={action}
            onChange={(e) => list.setFilter('action', e.target.value)}
            wrapperClassName="sm:w-60"
          >
            <option value="all">All Actions</option>
            {(actions.data?.actions ?? []).map((a) => (
              <option key={a} value={a}>
                {auditActionTitle(a)}
              </option>
            ))}
          </Select>
        </>
      }
      query={log}
      error={errorMessage(log.error, 'Failed to load the audit log')}
      loading={
        <ListSkeleton
          label="Loading the audit log"
          rowClassName="flex gap-6 border-b border-stone-100 py-3.5 last:border-0"
        >
          <Skeleton className="h-4 w-36" />
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-4 flex-1" />
        </ListSkeleton>
      }
      isEmpty={rows.length === 0}
      empty={<EmptyState icon={ScrollText} title={ADMIN_MESSAGES.noAuditEntries} />}
      noun="entries"
      onPageChange={list.setPage}
    >
      <div className="hidden md:block">
        <DataTable
          label="Audit log"
          minWidth="48rem"
          columns={COLUMNS}
          data={rows}
          getRowId={(entry) => entry.id}
          rowClassName={(entry) =>
            cn(
              'align-top transition-colors duration-1000',
              fresh.has(entry.id) ? 'bg-rose-50/70' : 'hover:bg-stone-50/60',
            )
          }
        />
      </div>
      <ol aria-label="Audit log" className="space-y-3 md:hidden">
        {rows.map((entry) => (
          <li
            key={entry.id}
            className={cn(
              'rounded-2xl p-4 ring-1 ring-stone-200/80 transition-colors duration-1000',
              fresh.has(entry.id) ? 'bg-rose-50' : 'bg-white',
            )}
          >
            <div className="flex items-start justify-between gap-3">
              <ActionCell entry={entry} />
              <time dateTime={entry.createdAt} className="shrink-0 text-xs text-stone-500">
                {formatDateTime(entry.createdAt)}
              </time>
            </div>
            <div className="mt-3 border-t border-stone-100 pt-3">
              <Details entry={entry} />
            </div>
          </li>
        ))}
      </ol>
    </ListPage>
  );
}

function ActionCell({ entry }: { entry: AuditEntry }) {
  const view = describeAudit(entry);
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2 font-medium text-stone-950">
        {view.title}
        {view.isSuccess ? null : <Badge tone="red">Failed</Badge>}
      </p>
      <p className="mt-0.5 font-mono text-[11px] text-stone-500">{entry.action}</p>
    </div>
  );
}

function Details({ entry }: { entry: AuditEntry }) {
  const view = describeAudit(entry);
  return (
    <div className="space-y-1.5 text-sm">
      {view.error ? <p className="font-medium text-red-600">{view.error}</p> : null}
      {view.parts.length > 0 ? (
        <dl className="flex flex-wrap gap-x-4 gap-y-1">
          {view.parts.map((part, i) => (
            <div key={`${part.label}-${i}`} className="flex min-w-0 gap-1.5">
              <dt className="shrink-0 text-stone-500">{part.label}</dt>
              <dd className="min-w-0 font-medium break-words text-stone-800">{part.value}</dd>
            </div>
          ))}
        </dl>
      ) : view.error ? null : (
        <p className="text-stone-500">—</p>
      )}
      {view.actor ? <p className="text-xs text-stone-500">by {view.actor}</p> : null}
    </div>
  );
}
