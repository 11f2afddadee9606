import { Clock, MessagesSquare } from 'lucide-react';
import { Link } from 'react-router';
import { formatDuration, type SupportTimes } from '#common/schemas/support-threads';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { Panel } from '#web/features/admin/shared/components/panel';
import { formatCount } from '#web/features/admin/shared/format';

/**
 * Customer support on the dashboard: the average time to the first answer (response_time) and to
 * archiving (resolution_time), over the messages that have one; until a message is answered it
 * says so instead of showing a made-up zero.
 */
export function SupportTimesPanel({
  support,
  messagesHref,
  className,
}: {
  support: SupportTimes;
  messagesHref: string;
  className?: string;
}) {
  return (
    <Panel title="Customer Support" titleId="customer-support" className={className}>
      {support.answered === 0 && support.resolved === 0 ? (
        <EmptyState icon={MessagesSquare} title="No message answered yet">
          Response and resolution times appear once you answer a message in{' '}
          <Link to={messagesHref} className="font-medium text-rose-700 hover:underline">
            Messages
          </Link>
          .
        </EmptyState>
      ) : (
        <dl className="grid gap-4 min-[420px]:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
          <Figure
            label="Average response time"
            value={support.averageResponseSeconds}
            note={`first answer, over ${formatCount(support.answered)} answered`}
          />
          <Figure
            label="Average resolution time"
            value={support.averageResolutionSeconds}
            note={
              support.resolved === 0
                ? 'none archived yet'
                : `to archive, over ${formatCount(support.resolved)} resolved`
            }
          />
        </dl>
      )}
    </Panel>
  );
}

function Figure({ label, value, note }: { label: string; value: number | null; note: string }) {
  return (
    <div className="rounded-xl bg-stone-50 p-4 ring-1 ring-stone-200/70">
      <dt className="flex items-center gap-1.5 text-sm font-medium text-stone-500">
        <Clock className="size-4 text-rose-600" aria-hidden="true" />
        {label}
      </dt>
      <dd className="mt-1.5">
        <span className="text-2xl font-semibold tracking-tight text-stone-950 tabular-nums">
          {value === null ? '—' : formatDuration(value)}
        </span>
        <span className="mt-1 block text-xs text-stone-500">{note}</span>
      </dd>
    </div>
  );
}
