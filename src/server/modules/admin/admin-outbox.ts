import { UUID_PATTERN } from '#common/schemas/admin';
import {
  OUTBOX_MESSAGES,
  type OutboxMail,
  type OutboxMailSummary,
  type OutboxPage,
  type OutboxQuery,
} from '#common/schemas/admin-outbox';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';

/**
 * The admin's Outbox: the mails of a shop without SMTP (each also written as an .eml file under
 * DATA_DIR/outbox), read from the mail_outbox rows, which hold both bodies. Only address, subject,
 * time, status and bodies leave: never the event key, the order or the sending errors.
 */
export function createAdminOutbox(deps: { db: Db; isLocal: boolean }) {
  const { db, isLocal } = deps;
  const ensureLocal = () => {
    if (!isLocal) throw new AppError('NOT_FOUND', OUTBOX_MESSAGES.notLocal);
  };
  const summary = (row: {
    id: string;
    to_address: string;
    subject: string;
    status: OutboxMailSummary['status'];
    created_at: Date | string;
  }): OutboxMailSummary => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
  });

  return {
    async list(query: OutboxQuery): Promise<OutboxPage> {
      ensureLocal();
      const { page, pageSize } = query;
      const rows = await db
        .selectFrom('mail_outbox')
        .select(['id', 'to_address', 'subject', 'status', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize + 1)
        .offset((page - 1) * pageSize)
        .execute();
      const counted = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return {
        items: rows.slice(0, pageSize).map(summary),
        page,
        pageSize,
        total: Number(counted.n),
        hasMore: rows.length > pageSize,
      };
    },

    async get(id: string): Promise<OutboxMail> {
      ensureLocal();
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', OUTBOX_MESSAGES.notFound);
      const row = await db
        .selectFrom('mail_outbox')
        .select(['id', 'to_address', 'subject', 'status', 'created_at', 'text_body', 'html_body'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw new AppError('NOT_FOUND', OUTBOX_MESSAGES.notFound);
      return { ...summary(row), text: row.text_body, html: row.html_body };
    },
  };
}
