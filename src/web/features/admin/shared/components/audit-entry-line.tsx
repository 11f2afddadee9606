import { cn } from '#web/lib/cn';
import type { AuditEntry } from '#common/schemas/admin-audit';
import { Badge } from '#web/components/ui/badge';
import { describeAudit } from '../audit';
import { formatDateTime } from '../format';

/** One audit entry in a compact list: action, details, who and when. */
export function AuditEntryLine({ entry }: { entry: AuditEntry }) {
  const view = describeAudit(entry);
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-stone-950">
          {view.title}
          {view.isSuccess ? null : <Badge tone="red">Failed</Badge>}
        </p>
        <p
          className={cn(
            'mt-0.5 text-xs [overflow-wrap:anywhere]',
            view.error ? 'text-red-600' : 'text-stone-500',
          )}
        >
          {view.error ?? (view.parts.map((p) => `${p.label}: ${p.value}`).join(' · ') || '—')}
        </p>
      </div>
      <p className="shrink-0 text-xs text-stone-500 sm:text-right">
        <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
        {view.actor ? <span className="block">{view.actor}</span> : null}
      </p>
    </div>
  );
}
