import { sql } from 'kysely';
import type { OrderMailKind } from '#common/schemas/admin-orders';
import type { Db } from '#server/db/client';

export interface OutgoingMail {
  /** Names the event the mail is about ('verify-email:<user>:<token>', 'order-confirmed:<order>'): one mail per key. */
  eventKey: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** An order's mail: which order, and which of its mails (the admin's order card lists them). */
  order?: { id: string; kind: OrderMailKind };
}

export type MailStatus = 'pending' | 'sent' | 'failed';

/** NOTIFYed when mail is queued: delivered when the queuing transaction commits, to every instance. */
export const MAIL_QUEUED_CHANNEL = 'mail_queued';

/** A queued mail as the admin's Outbox lists it (never its event key or order). */
const OUTBOX_COLUMNS = [
  'id',
  'to_address',
  'subject',
  'status',
  'attempts',
  'last_error',
  'created_at',
] as const;

export interface QueuedMail extends OutgoingMail {
  id: string;
  attempts: number;
}

export function createMailRepository(db: Db) {
  return {
    /** Queues a mail unless its event already has one; true when queued now. */
    async insertIfAbsent(mail: OutgoingMail): Promise<boolean> {
      const row = await db
        .insertInto('mail_outbox')
        .values({
          event_key: mail.eventKey,
          to_address: mail.to,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
          order_id: mail.order?.id ?? null,
          kind: mail.order?.kind ?? null,
        })
        .onConflict((oc) => oc.column('event_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (row === undefined) return false;
      // In the caller's transaction: PostgreSQL delivers it when (and only if) that commits.
      await sql`select pg_notify(${MAIL_QUEUED_CHANNEL}, '')`.execute(db);
      return true;
    },

    /**
     * Claims due mail for one sending attempt: moves its next attempt `leaseMs` ahead (so another
     * instance, or this one after a crash, tries again only then) and counts the attempt.
     */
    async claimDue(now: Date | undefined, leaseMs: number, limit: number): Promise<QueuedMail[]> {
      // Without `now`, the database's clock: the one that stamped the mail when it was queued. A
      // moment read in JavaScript is whole milliseconds, so a mail queued a fraction of one earlier
      // would not yet count as due (and the sender woken for it would leave it to its next pass).
      const at = sql`coalesce(${now ?? null}::timestamptz, now())`;
      const result = await sql<{
        id: string;
        event_key: string;
        to_address: string;
        subject: string;
        text_body: string;
        html_body: string | null;
        attempts: number;
      }>`
        update mail_outbox set next_attempt_at = ${at} + ${leaseMs} * interval '1 millisecond',
          attempts = attempts + 1
        where id in (
          select id from mail_outbox
          where status = 'pending' and next_attempt_at <= ${at}
          order by next_attempt_at
          limit ${limit}
          for update skip locked
        )
        returning id, event_key, to_address, subject, text_body, html_body, attempts
      `.execute(db);
      return result.rows.map((r) => ({
        id: r.id,
        eventKey: r.event_key,
        to: r.to_address,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
        attempts: r.attempts,
      }));
    },

    /** An order's mails, oldest first. */
    async findByOrder(orderIds: readonly string[]) {
      if (orderIds.length === 0) return [];
      return db
        .selectFrom('mail_outbox')
        .select(['order_id', 'kind', 'to_address', 'subject', 'status', 'created_at', 'sent_at'])
        .where('order_id', 'in', orderIds)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** The event keys of the order's mails of this kind queued in the last `withinMs` (the database's clock). */
    async recentOrderMailKeys(orderId: string, kind: OrderMailKind, withinMs: number): Promise<string[]> {
      const rows = await db
        .selectFrom('mail_outbox')
        .select('event_key')
        .where('order_id', '=', orderId)
        .where('kind', '=', kind)
        .where('created_at', '>', sql<Date>`now() - ${withinMs} * interval '1 millisecond'`)
        .execute();
      return rows.map((r) => r.event_key);
    },

    /** A page of the queue, newest first, of one status or all. */
    async listPage(status: MailStatus | undefined, limit: number, offset: number) {
      let query = db.selectFrom('mail_outbox').select(OUTBOX_COLUMNS);
      if (status) query = query.where('status', '=', status);
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    },

    async count(status: MailStatus | undefined): Promise<number> {
      let query = db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<string>().as('n'));
      if (status) query = query.where('status', '=', status);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },

    async findById(id: string) {
      return db
        .selectFrom('mail_outbox')
        .select([...OUTBOX_COLUMNS, 'text_body', 'html_body'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Puts a dead-lettered mail back in the queue, due now, with a fresh count of attempts; undefined unless it was 'failed'. */
    async requeueFailed(id: string) {
      return db
        .updateTable('mail_outbox')
        .set({ status: 'pending', attempts: 0, next_attempt_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .returning(OUTBOX_COLUMNS)
        .executeTakeFirst();
    },

    async markSent(id: string, at: Date): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({ status: 'sent', sent_at: at, last_error: null })
        .where('id', '=', id)
        .execute();
    },

    async markFailed(id: string, error: string, retryAt: Date | null): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set(
          retryAt ? { last_error: error, next_attempt_at: retryAt } : { last_error: error, status: 'failed' },
        )
        .where('id', '=', id)
        .execute();
    },
  };
}
