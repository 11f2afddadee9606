import { z } from 'zod';
import { PageQuerySchema, pageSchema, type Page } from './admin';

/**
 * The admin's Outbox (local mail only: no SMTP_URL, each mail is also an .eml file under
 * DATA_DIR/outbox). GET /api/admin/outbox lists the mails newest first; GET /api/admin/outbox/:id
 * gives one with its bodies. With SMTP configured both answer 404 (OUTBOX_MESSAGES.notLocal).
 */
export const ADMIN_OUTBOX_API = {
  list: '/api/admin/outbox',
  mail: (id: string) => `/api/admin/outbox/${encodeURIComponent(id)}`,
} as const;

export const OUTBOX_MESSAGES = {
  notLocal: 'The Outbox is only kept in local mail mode (SMTP_URL is set: mail is sent by SMTP)',
  notFound: 'Mail not found',
} as const;

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

export const OutboxMailSummarySchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  createdAt: z.string(),
});
export type OutboxMailSummary = z.infer<typeof OutboxMailSummarySchema>;
export const OutboxPageSchema = pageSchema(OutboxMailSummarySchema);
export type OutboxPage = Page<OutboxMailSummary>;

export const OutboxMailSchema = OutboxMailSummarySchema.extend({
  text: z.string(),
  html: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof OutboxMailSchema>;

export const OutboxQuerySchema = PageQuerySchema;
export type OutboxQuery = z.infer<typeof OutboxQuerySchema>;
