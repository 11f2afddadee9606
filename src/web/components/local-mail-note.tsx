import { LOCAL_MAIL_NOTE } from '#common/local-mail';
import { useLocalMail } from '#web/lib/shop-info';

/**
 * Where a mail was just sent: when mail is local (no SMTP), says it is in the admin's Outbox
 * (nothing reaches an inbox). Renders nothing otherwise.
 */
export function LocalMailNote({ className }: { className?: string }) {
  const isLocal = useLocalMail();
  if (!isLocal) return null;
  return (
    <span data-testid="local-mail-note" className={className ?? 'mt-1 block font-medium'}>
      {LOCAL_MAIL_NOTE}.
    </span>
  );
}
