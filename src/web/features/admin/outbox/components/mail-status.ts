import type { OutboxMailSummary } from '#common/schemas/admin-outbox';
import type { BadgeTone } from '#web/components/ui/badge';

/** A mail's status as the Outbox shows it: with local mail a sent mail was written to a file. */
export function mailStatus(
  mail: Pick<OutboxMailSummary, 'status' | 'lastError'>,
  isLocal: boolean,
): { label: string; tone: BadgeTone } {
  if (mail.status === 'sent') return { label: isLocal ? 'Written' : 'Sent', tone: 'green' };
  if (mail.status === 'failed') return { label: 'Failed', tone: 'red' };
  return { label: mail.lastError ? 'Retrying' : 'Queued', tone: 'orange' };
}

/** '1 attempt', '8 attempts'. */
export function attemptsText(attempts: number): string {
  return `${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}`;
}
