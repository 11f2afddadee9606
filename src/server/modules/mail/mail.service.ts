import type { OrderMailKind } from '#common/schemas/admin-orders';
import type { Db } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import { createMailRepository, type OutgoingMail } from './mail.repository';
import type { MailTransport } from './mail-transport';

/**
 * The shop's mail: queued in the database (mail_outbox) by the event that causes it, in that
 * event's transaction when there is one, and sent by the mail sender job. One mail per event key,
 * however often the event is seen; a failed send is retried with a growing wait (30 s, 1 min, 2 min
 * ... up to MAX_ATTEMPTS); a claimed mail is not claimed again while its attempt is under way.
 */

export const MAX_ATTEMPTS = 8;
const ATTEMPT_LEASE_MS = 60_000;

export type { OutgoingMail };

export interface MailService {
  /** Queues a mail in `db` (a transaction's, to send it only if that commits); false when its event already has one. */
  enqueue(mail: OutgoingMail, db?: Db): Promise<boolean>;
  /** Sends what is due (at `now`, by default the database's clock); returns how many were sent. */
  sendDue(now?: Date): Promise<number>;
  /** Called after every enqueue (the sender job wakes at once). */
  onQueued(listener: () => void): () => void;
}

/**
 * Queues a mail in `db` (a transaction's, so it is sent only if that commits); false when its event
 * already has one. The sender finds it on its next pass.
 */
export function queueMail(db: Db, mail: OutgoingMail): Promise<boolean> {
  return createMailRepository(db).insertIfAbsent(mail);
}

/** The mails queued for these orders (ORDER_MAIL_KINDS), oldest first. */
export function mailsOfOrders(db: Db, orderIds: readonly string[]) {
  return createMailRepository(db).findByOrder(orderIds);
}

/** The event keys of an order's mails of one kind queued in the last `withinMs`. */
export function recentOrderMailKeys(
  db: Db,
  orderId: string,
  kind: OrderMailKind,
  withinMs: number,
): Promise<string[]> {
  return createMailRepository(db).recentOrderMailKeys(orderId, kind, withinMs);
}

export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export function createMailService(deps: { db: Db; transport: MailTransport; logger: Logger }): MailService {
  const { db, transport } = deps;
  const log = deps.logger.child({ module: 'mail' });
  const listeners = new Set<() => void>();

  return {
    async enqueue(mail, within = db) {
      const queued = await queueMail(within, mail);
      if (queued) for (const listener of listeners) listener();
      return queued;
    },

    async sendDue(now) {
      const repo = createMailRepository(db);
      const due = await repo.claimDue(now, ATTEMPT_LEASE_MS, 20);
      let sent = 0;
      for (const mail of due) {
        try {
          await transport.send(mail);
          await repo.markSent(mail.id, new Date());
          sent++;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const giveUp = mail.attempts >= MAX_ATTEMPTS;
          await repo.markFailed(
            mail.id,
            message.slice(0, 500),
            giveUp ? null : new Date(Date.now() + retryDelayMs(mail.attempts)),
          );
          log[giveUp ? 'error' : 'warn'](
            { err, mailId: mail.id, eventKey: mail.eventKey, attempts: mail.attempts },
            giveUp ? 'mail not sent: gave up' : 'mail not sent: will retry',
          );
        }
      }
      return sent;
    },

    onQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
