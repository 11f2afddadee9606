import { useQueryClient } from '@tanstack/react-query';
import { cn } from '#web/lib/cn';
import { ScrollText } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import { AuditEntrySchema, type AuditEntry } from '#common/schemas/admin-audit';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Pagination } from '#web/components/ui/pagination';
import { SearchInput } from '#web/components/ui/search-input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { Table, TableBody, TableHead, Td, Th } from '#web/components/ui/table';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { auditKeys } from '../api/audit-keys';
import { auditActionTitle, describeAudit } from '#web/features/admin/shared/audit';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { Toolbar } from '#web/features/admin/shared/components/toolbar';
import { formatDateTime } from '#web/features/admin/shared/format';
import { useDebouncedValue } from '#web/features/admin/shared/hooks/use-debounced-value';
import { useAuditActions } from '../api/get-audit-actions';
import { prependAuditEntry, useAuditLog } from '../api/get-audit-log';

const FRESH_MS = 4000;

/** The audit log: search, action filter, newest first; new entries slide in at the top live. */
export function AuditLog() {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState('');
  const [action, setAction] = useState('all');
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(searchText.trim());
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
    <div>
      <Toolbar>
        <SearchInput
          label="Search audit log"
          placeholder="Search actions and details..."
          value={searchText}
          onChange={(e) => {
            setSearchText(e.target.value);
            setPage(1);
          }}
          wrapperClassName="sm:w-80"
        />
        <Select
          aria-label="Action"
          size="sm"
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            setPage(1);
          }}
          wrapperClassName="sm:w-60"
        >
          <option value="all">All Actions</option>
          {(actions.data?.actions ?? []).map((a) => (
            <option key={a} value={a}>
              {auditActionTitle(a)}
            </option>
          ))}
        </Select>
      </Toolbar>

      {log.isError ? (
        <Alert variant="error">{errorMessage(log.error, 'Failed to load the audit log')}</Alert>
      ) : log.isPending ? (
        <div role="status" className="rounded-2xl bg-white p-4 ring-1 ring-stone-200/80">
          <span className="sr-only">Loading the audit log</span>
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="flex gap-6 border-b border-stone-100 py-3.5 last:border-0">
              <Skeleton className="h-4 w-36" />
              <Skeleton className="h-4 w-28" />
              <Skeleton className="h-4 flex-1" />
            </div>
          ))}
        </div>
      ) : rows.length === 0 ? (
        <div className="rounded-2xl bg-white ring-1 ring-stone-200/80">
          <EmptyState icon={ScrollText} title={ADMIN_MESSAGES.noAuditEntries} />
        </div>
      ) : (
        <div className={log.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
          <div className="hidden md:block">
            <Table label="Audit log" minWidth="48rem">
              <TableHead>
                <tr>
                  <Th className="w-48">Timestamp</Th>
                  <Th className="w-56">Action</Th>
                  <Th>Details</Th>
                </tr>
              </TableHead>
              <TableBody>
                {rows.map((entry) => (
                  <tr
                    key={entry.id}
                    className={cn(
                      'align-top transition-colors duration-1000',
                      fresh.has(entry.id) ? 'bg-rose-50/70' : 'hover:bg-stone-50/60',
                    )}
                  >
                    <Td className="whitespace-nowrap text-stone-500 tabular-nums">
                      <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                    </Td>
                    <Td>
                      <ActionCell entry={entry} />
                    </Td>
                    <Td>
                      <Details entry={entry} />
                    </Td>
                  </tr>
                ))}
              </TableBody>
            </Table>
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
          {log.data ? (
            <Pagination
              page={log.data.page}
              pageSize={log.data.pageSize}
              total={log.data.total}
              hasMore={log.data.hasMore}
              noun="entries"
              onPageChange={setPage}
              isBusy={log.isFetching}
            />
          ) : null}
        </div>
      )}
    </div>
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
