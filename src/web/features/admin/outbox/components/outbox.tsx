import { ArrowLeft, Inbox, Mail } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { OutboxMailSummary } from '#common/schemas/admin-outbox';
import { Alert } from '#web/components/ui/alert';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Pagination } from '#web/components/ui/pagination';
import { Skeleton } from '#web/components/ui/skeleton';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { formatDateTime } from '#web/features/admin/shared/format';
import { errorMessage } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { useOutbox, useOutboxMail } from '../api/get-outbox';
import { MailText } from './mail-text';

const STATUS: Record<OutboxMailSummary['status'], { label: string; tone: BadgeTone }> = {
  sent: { label: 'Written', tone: 'green' },
  pending: { label: 'Queued', tone: 'orange' },
  failed: { label: 'Failed', tone: 'red' },
};

/**
 * The Outbox (local mail): the mails list at left, the open one at right (on small screens one
 * after the other). The open mail is `?mail=<id>`, so a mail has its own address.
 */
export function Outbox() {
  const [params, setParams] = useSearchParams();
  const openId = params.get('mail');
  const [page, setPage] = useState(1);
  const list = useOutbox(page);
  const rows = list.data?.items ?? [];

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
                        {mail.status === 'sent' ? null : (
                          <Badge tone={STATUS[mail.status].tone}>{STATUS[mail.status].label}</Badge>
                        )}
                      </span>
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

function MailReader({ id, onBack }: { id: string; onBack: () => void }) {
  const mail = useOutboxMail(id);
  const [view, setView] = useState<'text' | 'html'>('text');

  return (
    <article
      aria-label="Mail"
      className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80"
    >
      <div className="border-b border-stone-100 px-4 pt-3 lg:hidden">
        <button
          type="button"
          onClick={onBack}
          className="mb-2 -ml-2 inline-flex h-9 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-stone-600 hover:bg-stone-100 hover:text-stone-950"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          All mail
        </button>
      </div>
      {mail.isError ? (
        <div className="p-5">
          <Alert variant="error">{errorMessage(mail.error, 'Failed to load the mail')}</Alert>
        </div>
      ) : mail.isPending ? (
        <div role="status" className="space-y-3 p-5 sm:p-6">
          <span className="sr-only">Loading the mail</span>
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="mt-6 h-40 w-full" />
        </div>
      ) : (
        <>
          <header className="border-b border-stone-100 px-5 py-5 sm:px-6">
            <h2 className="text-lg font-semibold tracking-tight break-words text-stone-950">
              {mail.data.subject}
            </h2>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
              <dt className="text-stone-500">To</dt>
              <dd className="truncate text-stone-900">{mail.data.to}</dd>
              <dt className="text-stone-500">Date</dt>
              <dd className="text-stone-900">
                <time dateTime={mail.data.createdAt}>{formatDateTime(mail.data.createdAt)}</time>
              </dd>
              <dt className="text-stone-500">Status</dt>
              <dd>
                <Badge tone={STATUS[mail.data.status].tone}>{STATUS[mail.data.status].label}</Badge>
              </dd>
            </dl>
            {mail.data.html ? (
              <div role="group" aria-label="Show" className="mt-4 inline-flex rounded-lg bg-stone-100 p-0.5">
                {(['text', 'html'] as const).map((v) => (
                  <button
                    key={v}
                    type="button"
                    aria-pressed={view === v}
                    onClick={() => setView(v)}
                    className={cn(
                      'h-8 rounded-md px-3 text-xs font-semibold transition-colors',
                      view === v
                        ? 'bg-white text-stone-950 shadow-sm'
                        : 'text-stone-600 hover:text-stone-950',
                    )}
                  >
                    {v === 'text' ? 'Text' : 'HTML'}
                  </button>
                ))}
              </div>
            ) : null}
          </header>
          <div className="px-5 py-5 sm:px-6">
            {view === 'html' && mail.data.html ? (
              <iframe
                title={`HTML of ${mail.data.subject}`}
                // No scripts, no same origin: links open in a new tab only.
                sandbox="allow-popups allow-popups-to-escape-sandbox"
                srcDoc={`<base target="_blank">${mail.data.html}`}
                className="h-[32rem] w-full rounded-xl bg-white ring-1 ring-stone-200"
              />
            ) : (
              <MailText text={mail.data.text} />
            )}
          </div>
        </>
      )}
    </article>
  );
}
