import { z } from 'zod';
import { PageQuerySchema, pageSchema, UUID_PATTERN, type Page } from './admin';

/**
 * The admin's Outbox: every mail the shop queued (mail_outbox), newest first.
 * GET /api/admin/outbox lists them (`?status=failed` for the dead letters: mails that every retry
 * failed to send), GET /api/admin/outbox-counts counts the failed ones (the navigation's badge),
 * GET /api/admin/outbox/:id gives one, and POST /api/admin/outbox/:id/resend puts a failed mail
 * back in the queue ("Send again"). With local mail (no SMTP_URL) a mail's text and HTML are shown
 * (nothing leaves the shop, each is also an .eml file under DATA_DIR/outbox); with SMTP they are
 * not (they may hold a sign-in or reset link meant only for the recipient): `text` is null.
 */
export const ADMIN_OUTBOX_API = {
  list: '/api/admin/outbox',
  counts: '/api/admin/outbox-counts',
  mail: (id: string) => `/api/admin/outbox/${encodeURIComponent(id)}`,
  resend: (id: string) => `/api/admin/outbox/${encodeURIComponent(id)}/resend`,
} as const;

export const OUTBOX_MESSAGES = {
  notFound: 'Mail not found',
  notFailed: 'Only a mail that failed can be sent again',
} as const;

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const OutboxMailSummarySchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  /** Sending attempts so far (a failed mail: all of them). */
  attempts: z.int(),
  /** The last sending error (a failed mail, or one waiting for its next attempt); null once sent. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxMailSummary = z.infer<typeof OutboxMailSummarySchema>;
export const OutboxPageSchema = pageSchema(OutboxMailSummarySchema);
export type OutboxPage = Page<OutboxMailSummary>;

export const OutboxMailSchema = OutboxMailSummarySchema.extend({
  /** Null when mail is sent by SMTP (the body stays with its recipient). */
  text: z.string().nullable(),
  html: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof OutboxMailSchema>;

export const OutboxQuerySchema = z.object({
  ...PageQuerySchema.shape,
  /** One status only; unset or `all`: every mail. */
  status: z
    .enum(['all', ...OUTBOX_STATUSES], { error: 'status must be all, pending, sent or failed' })
    .optional()
    .transform((v) => (v === 'all' ? undefined : v)),
});
export type OutboxQuery = z.output<typeof OutboxQuerySchema>;

export const OutboxCountsSchema = z.object({ failed: z.int() });
export type OutboxCounts = z.infer<typeof OutboxCountsSchema>;

export const OutboxMailParamsSchema = z.object({
  id: z.string().regex(UUID_PATTERN, 'id must be a mail id'),
});
