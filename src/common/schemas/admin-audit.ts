import { z } from 'zod';
import { AdminSearchSchema, PageQuerySchema, pageSchema, type Page } from './admin';

/** Admin audit log: the actions recorded, entries and their query. Routes: see admin.ts. */

/** Every action the back office records (the first four are the spec's). */
export const AUDIT_ACTIONS = [
  'update_order',
  'delete_order',
  'process_airdrop',
  'update_api_config',
  'create_product',
  'update_product',
  'delete_product',
  'update_message_status',
  'update_message_priority',
  'reply_message',
  'refund_order',
  'remove_api_config',
  'resend_mail',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  /** Always includes `admin: { id, email }` (the acting admin) for entries the back office writes. */
  details: z.record(z.string(), z.unknown()),
  actorId: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditEntryPageSchema = pageSchema(AuditEntrySchema);
export type AuditEntryPage = Page<AuditEntry>;

export const AuditQuerySchema = z.object({
  /** Matches the action and the details' text, case-insensitive. */
  search: AdminSearchSchema,
  action: z
    .string()
    .trim()
    .max(100, 'action must be at most 100 characters')
    .regex(/^[a-z0-9_]*$/, 'action must be an action name')
    .optional()
    .transform((v) => (v === undefined || v === '' || v === 'all' ? undefined : v)),
  ...PageQuerySchema.shape,
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

export const AuditActionListSchema = z.object({ actions: z.array(z.string()) });
export type AuditActionList = z.infer<typeof AuditActionListSchema>;
