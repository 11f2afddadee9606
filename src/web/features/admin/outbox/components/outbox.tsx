import { Inbox, Mail, MailX } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Pagination } from '#web/components/ui/pagination';
import { Segmented } from '#web/components/ui/segmented';
import { Skeleton } from '#web/components/ui/skeleton';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { formatDateTime } from '#web/features/admin/shared/format';
import { errorMessage } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { useLocalMail } from '#web/lib/shop-info';
import { useOutbox, useOutboxCounts } from '../api/get-outbox';
import { MailReader } from './mail-reader';
import { attemptsText, mailStatus } from './mail-status';

/**
 * The Outbox: the mail queue at left (every mail, or only those that failed after every retry),
 * the open one at right (on small screens one after the other). The open mail is `?mail=<id>` and
 * the filter `?status=failed`, so both have their own address.
 */
export function Outbox() {
  const [params, setParams] = useSearchParams();
  const openId = params.get('mail');
  const filter = params.get('status') === 'failed' ? 'failed' : 'all';
  const [page, setPage] = useState(1);
  const list = useOutbox(page, filter);
  const failed = useOutboxCounts().data?.failed;
  const isLocal = useLocalMail();
  const rows = list.data?.items ?? [];

  const showFailed = (only: boolean) => {
    setPage(1);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (only) next.set('status', 'failed');
        else next.delete('status');
        return next;
      },
      { preventScrollReset: true },
    );
  };

  const open = (id: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('mail', id);
        else next.delete('mail');
        return next;
      },
      { preventScrollReset: true },
    );

  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:items-start">
      <section
        aria-label="Mails"
        className={cn(
          'overflow-hidden rounded-2xl bg-white shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80',
          openId && 'hidden lg:block',
        )}
      >
        <div className="border-b border-stone-100 px-3 py-2.5">
          <Segmented
            label="Filter mail"
            value={filter}
            onChange={(v) => showFailed(v === 'failed')}
            options={[
              { value: 'all', label: 'All mail' },
              { value: 'failed', label: failed ? `Failed (${failed})` : 'Failed' },
            ]}
          />
        </div>
        {list.isError ? (
          <div className="p-4">
            <Alert variant="error">{errorMessage(list.error, 'Failed to load the Outbox')}</Alert>
          </div>
        ) : list.isPending ? (
          <div role="status" className="divide-y divide-stone-100">
            <span className="sr-only">Loading the Outbox</span>
            {Array.from({ length: 6 }, (_, i) => (
              <div key={i} className="space-y-2 px-4 py-3.5">
                <Skeleton className="h-4 w-3/4" />
                <Skeleton className="h-3 w-1/2" />
              </div>
            ))}
          </div>
        ) : rows.length === 0 && filter === 'failed' ? (
          <EmptyState icon={MailX} title="No failed mail">
            A mail that could not be sent after every retry shows here, with its error.
          </EmptyState>
        ) : rows.length === 0 ? (
          <EmptyState icon={Inbox} title="No mail yet">
            Mails the shop writes (sign-in codes, password resets, order confirmations) show here.
          </EmptyState>
        ) : (
          <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
            <ul className="divide-y divide-stone-100">
              {rows.map((mail) => {
                const isOpen = mail.id === openId;
                return (
                  <li key={mail.id}>
                    <button
                      type="button"
                      onClick={() => open(mail.id)}
                      aria-current={isOpen ? 'true' : undefined}
                      className={cn(
                        'relative block w-full px-4 py-3.5 text-left transition-colors focus-visible:z-10 focus-visible:ring-2 focus-visible:ring-rose-600/40 focus-visible:outline-none',
                        isOpen ? 'bg-rose-50/70' : 'hover:bg-stone-50',
                      )}
                    >
                      {isOpen ? (
                        <span
                          aria-hidden="true"
                          className="absolute inset-y-2 left-0 w-0.5 rounded-full bg-rose-600"
                        />
                      ) : null}
                      <span className="flex items-start justify-between gap-3">
                        <span className="min-w-0 truncate text-sm font-medium text-stone-950">
                          {mail.subject}
                        </span>
                        <time
                          dateTime={mail.createdAt}
                          className="shrink-0 text-xs text-stone-500 tabular-nums"
                        >
                          {formatDateTime(mail.createdAt)}
                        </time>
                      </span>
                      <span className="mt-1 flex items-center justify-between gap-3">
                        <span className="min-w-0 truncate text-xs text-stone-500">To {mail.to}</span>
                        <Badge tone={mailStatus(mail, isLocal).tone}>{mailStatus(mail, isLocal).label}</Badge>
                      </span>
                      {mail.status !== 'sent' && mail.lastError ? (
                        <span className="mt-1 block truncate text-xs text-red-700">
                          {attemptsText(mail.attempts)} · {mail.lastError}
                        </span>
                      ) : null}
                    </button>
                  </li>
                );
              })}
            </ul>
            {list.data && (list.data.hasMore || list.data.page > 1) ? (
              <div className="border-t border-stone-100 px-4">
                <Pagination
                  page={list.data.page}
                  pageSize={list.data.pageSize}
                  total={list.data.total}
                  hasMore={list.data.hasMore}
                  noun="mails"
                  onPageChange={setPage}
                  isBusy={list.isFetching}
                />
              </div>
            ) : null}
          </div>
        )}
      </section>

      <div className={cn(!openId && 'hidden lg:block')}>
        {openId ? (
          <MailReader id={openId} onBack={() => open(null)} />
        ) : (
          <div className="rounded-2xl bg-white shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80">
            <EmptyState icon={Mail} title="Choose a mail to read it" />
          </div>
        )}
      </div>
    </div>
  );
}
