import { ArrowLeft, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { formatDateTime } from '#web/features/admin/shared/format';
import { errorMessage } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { useLocalMail } from '#web/lib/shop-info';
import { useOutboxMail } from '../api/get-outbox';
import { useResendOutboxMail } from '../api/resend-outbox-mail';
import { MailText } from './mail-text';
import { attemptsText, mailStatus } from './mail-status';

/**
 * One mail of the Outbox: who, when, its status (with the attempts and the last error of a mail
 * that could not be sent, and Send again for a failed one), and its text and HTML with local mail.
 */
export function MailReader({ id, onBack }: { id: string; onBack: () => void }) {
  const mail = useOutboxMail(id);
  const isLocal = useLocalMail();
  const resend = useResendOutboxMail();
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
              <dd className="flex flex-wrap items-center gap-2">
                <Badge tone={mailStatus(mail.data, isLocal).tone}>
                  {mailStatus(mail.data, isLocal).label}
                </Badge>
                {mail.data.status !== 'sent' && mail.data.attempts > 0 ? (
                  <span className="text-stone-600">{attemptsText(mail.data.attempts)}</span>
                ) : null}
              </dd>
              {mail.data.lastError ? (
                <>
                  <dt className="text-stone-500">Last error</dt>
                  <dd className="font-mono text-xs/5 break-words text-red-700">{mail.data.lastError}</dd>
                </>
              ) : null}
            </dl>
            {mail.data.status === 'failed' ? (
              <div className="mt-4 space-y-2">
                <Button size="sm" isLoading={resend.isPending} onClick={() => resend.mutate(mail.data.id)}>
                  {resend.isPending ? null : <RotateCw className="size-4" aria-hidden="true" />}
                  Send again
                </Button>
                {resend.isError ? (
                  <Alert variant="error">{errorMessage(resend.error, 'The mail could not be queued')}</Alert>
                ) : null}
              </div>
            ) : resend.isSuccess && resend.data.id === mail.data.id ? (
              <p role="status" className="mt-4 text-sm text-stone-600">
                Queued again: the shop sends it in a moment.
              </p>
            ) : null}
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
            {mail.data.text === null ? (
              <p className="text-sm text-stone-600">
                Mail is sent by SMTP, so its text is not shown here: it may hold a sign-in or reset link meant
                only for its recipient.
              </p>
            ) : view === 'html' && mail.data.html ? (
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
