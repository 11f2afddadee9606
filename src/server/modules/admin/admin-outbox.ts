import { UUID_PATTERN } from '#common/schemas/admin';
import {
  OUTBOX_MESSAGES,
  type OutboxCounts,
  type OutboxMail,
  type OutboxMailSummary,
  type OutboxPage,
  type OutboxQuery,
} from '#common/schemas/admin-outbox';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { EventHub } from '../events/event-hub';
import { countMails, findMail, outboxRows, requeueFailedMail, type MailService } from '../mail/mail.service';

/**
 * The admin's Outbox: the mail queue (mail_outbox) with each mail's status, attempts and last
 * error, and "Send again" for a dead letter (a mail every retry failed to send). Never the event
 * key or the order; the bodies only with local mail (no SMTP_URL), where nothing leaves the shop:
 * with SMTP a body may hold a sign-in or reset link meant only for its recipient.
 */
export function createAdminOutbox(deps: {
  db: Db;
  isLocal: boolean;
  mail: MailService;
  events: EventHub;
  logger: Logger;
}) {
  const { db, isLocal } = deps;
  const summary = (row: {
    id: string;
    to_address: string;
    subject: string;
    status: OutboxMailSummary['status'];
    attempts: number;
    last_error: string | null;
    created_at: Date | string;
  }): OutboxMailSummary => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.status === 'sent' ? null : row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
  });

  return {
    async list(query: OutboxQuery): Promise<OutboxPage> {
      const { page, pageSize, status } = query;
      const rows = await outboxRows(db, status, pageSize + 1, (page - 1) * pageSize);
      return {
        items: rows.slice(0, pageSize).map(summary),
        page,
        pageSize,
        total: await countMails(db, status),
        hasMore: rows.length > pageSize,
      };
    },

    async counts(): Promise<OutboxCounts> {
      return { failed: await countMails(db, 'failed') };
    },

    async get(id: string): Promise<OutboxMail> {
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', OUTBOX_MESSAGES.notFound);
      const row = await findMail(db, id);
      if (!row) throw new AppError('NOT_FOUND', OUTBOX_MESSAGES.notFound);
      return {
        ...summary(row),
        text: isLocal ? row.text_body : null,
        html: isLocal ? row.html_body : null,
      };
    },

    /** "Send again": a failed mail goes back to the queue, due now, with fresh attempts (audited). */
    async resend(id: string, actor: AdminActor): Promise<OutboxMailSummary> {
      const result = await db.transaction().execute(async (trx) => {
        const before = await findMail(trx, id);
        if (!before) throw new AppError('NOT_FOUND', OUTBOX_MESSAGES.notFound);
        const row = await requeueFailedMail(trx, id);
        if (!row) throw new AppError('CONFLICT', OUTBOX_MESSAGES.notFailed);
        const entry = await recordAudit(
          trx,
          {
            action: 'resend_mail',
            details: {
              mailId: id,
              to: row.to_address,
              subject: row.subject,
              attempts: before.attempts,
              lastError: before.last_error,
              success: true,
            },
            actor,
          },
          deps.logger,
        );
        return { row, entry };
      });
      deps.mail.wake();
      await announceAudit(deps.events, result.entry);
      return summary(result.row);
    },
  };
}
