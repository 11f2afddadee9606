import { Mail } from 'lucide-react';
import { ORDER_MAIL_LABELS, type AdminOrder } from '#common/schemas/admin-orders';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { formatDateTime } from '#web/features/admin/shared/format';

const MAIL_STATUS: Record<AdminOrder['mails'][number]['status'], { label: string; tone: BadgeTone }> = {
  pending: { label: 'Queued', tone: 'orange' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Not sent', tone: 'red' },
};

/** The mails the order has sent the shopper, oldest first: what each said, when, and whether it left. */
export function OrderMails({ mails }: { mails: AdminOrder['mails'] }) {
  return (
    <section aria-label="Mails sent" className="border-t border-stone-100 px-5 py-4">
      <h3 className="text-xs font-semibold tracking-wide text-stone-500 uppercase">Mails sent</h3>
      {mails.length === 0 ? (
        <p className="mt-2 text-sm text-stone-500">No mail sent for this order yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-100 rounded-xl ring-1 ring-stone-200/80">
          {mails.map((m) => {
            const state = MAIL_STATUS[m.status];
            return (
              <li
                key={`${m.kind}-${m.queuedAt}-${m.subject}`}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5 text-sm"
              >
                <Mail className="size-4 shrink-0 text-stone-400" aria-hidden="true" />
                <span className="font-medium text-stone-900">{ORDER_MAIL_LABELS[m.kind]}</span>
                <span className="min-w-0 flex-1 truncate text-stone-500" title={`${m.subject} · to ${m.to}`}>
                  {m.subject}
                </span>
                <time dateTime={m.sentAt ?? m.queuedAt} className="text-xs text-stone-500 tabular-nums">
                  {formatDateTime(m.sentAt ?? m.queuedAt)}
                </time>
                <Badge tone={state.tone}>{state.label}</Badge>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
