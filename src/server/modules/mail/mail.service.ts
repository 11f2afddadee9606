import type { OrderMailKind } from '#common/schemas/admin-orders';
import type { Database, Db } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import {
  createMailRepository,
  MAIL_QUEUED_CHANNEL,
  type MailStatus,
  type OutgoingMail,
  type QueuedMail,
} from './mail.repository';
import type { MailTransport } from './mail-transport';

/**
 * The shop's mail: queued in the database (mail_outbox) by the event that causes it, in that
 * event's transaction when there is one, and sent by the mail sender job. One mail per event key,
 * however often the event is seen; a failed send is retried with a growing wait (30 s, 1 min, 2 min
 * ... up to MAX_ATTEMPTS, MAIL_MAX_ATTEMPTS); then the mail is dead-lettered: 'failed' with its last
 * error, listed in the admin's Outbox, which can put it back in the queue (requeueFailedMail). A
 * claimed mail is not claimed again while its attempt is under way.
 */

export const MAX_ATTEMPTS = 8;
const ATTEMPT_LEASE_MS = 60_000;

export type { OutgoingMail };

export interface MailService {
  /** Queues a mail in `db` (a transaction's, to send it only if that commits); false when its event already has one. */
  enqueue(mail: OutgoingMail, db?: Db): Promise<boolean>;
  /** Sends what is due (at `now`, by default the database's clock); returns how many were sent. */
  sendDue(now?: Date): Promise<number>;
  /**
   * Called when mail was queued, here or on another instance, once its transaction committed (a
   * NOTIFY on MAIL_QUEUED_CHANNEL): the sender job wakes at once and finds it.
   */
  onQueued(listener: () => void): () => void;
  /** Tells the sender that mail was put back in the queue outside enqueue (the Outbox's Send again). */
  wake(): void;
  /** Stops listening and closes the transport's connections (after the sender job stopped). */
  close(): Promise<void>;
}

/**
 * Queues a mail in `db` (a transaction's, so it is sent only if that commits); false when its event
 * already has one. The sender is woken when it commits (MAIL_QUEUED_CHANNEL), on every instance.
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

/** A page of the queue for the admin's Outbox, newest first; `limit + 1` rows tell whether there is more. */
export function outboxRows(db: Db, status: MailStatus | undefined, limit: number, offset: number) {
  return createMailRepository(db).listPage(status, limit, offset);
}

export function countMails(db: Db, status?: MailStatus): Promise<number> {
  return createMailRepository(db).count(status);
}

export function findMail(db: Db, id: string) {
  return createMailRepository(db).findById(id);
}

/** Puts a dead-lettered ('failed') mail back in the queue with a fresh count of attempts; undefined when it is not failed. */
export function requeueFailedMail(db: Db, id: string) {
  return createMailRepository(db).requeueFailed(id);
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

export function createMailService(deps: {
  db: Db;
  transport: MailTransport;
  logger: Logger;
  /** Attempts before a mail is dead-lettered (default MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Where queued mail is announced (LISTEN); without it only the sender's own timer finds it. */
  database?: Pick<Database, 'listen'>;
}): MailService {
  const { db, transport } = deps;
  const maxAttempts = deps.maxAttempts ?? MAX_ATTEMPTS;
  const log = deps.logger.child({ module: 'mail' });
  const listeners = new Set<() => void>();
  const wakeAll = () => {
    for (const listener of listeners) listener();
  };
  // A NOTIFY missed while the LISTEN connection is down is found by the sender's next timed pass.
  const unlisten = deps.database?.listen(MAIL_QUEUED_CHANNEL, wakeAll).catch((err: unknown) => {
    log.warn({ err }, 'not listening for queued mail: the sender finds it on its timer');
    return undefined;
  });

  const attempt = async (mail: QueuedMail): Promise<boolean> => {
    const repo = createMailRepository(db);
    try {
      await transport.send(mail);
      await repo.markSent(mail.id, new Date());
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const giveUp = mail.attempts >= maxAttempts;
      await repo.markFailed(
        mail.id,
        message.slice(0, 500),
        giveUp ? null : new Date(Date.now() + retryDelayMs(mail.attempts)),
      );
      log[giveUp ? 'error' : 'warn'](
        { err, mailId: mail.id, eventKey: mail.eventKey, attempts: mail.attempts },
        giveUp ? 'mail not sent: gave up (failed, in the Outbox)' : 'mail not sent: will retry',
      );
      return false;
    }
  };

  return {
    enqueue(mail, within = db) {
      return queueMail(within, mail);
    },

    async sendDue(now) {
      const due = await createMailRepository(db).claimDue(now, ATTEMPT_LEASE_MS, 20);
      let sent = 0;
      // As many at once as the transport has connections (the SMTP pool's), each reused.
      await eachLimited(due, transport.concurrency, async (mail) => {
        if (await attempt(mail)) sent++;
      });
      return sent;
    },

    onQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    wake: wakeAll,

    async close() {
      await (
        await unlisten
      )?.();
      transport.close();
    },
  };
}
