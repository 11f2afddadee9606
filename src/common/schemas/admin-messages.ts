import { z } from 'zod';
import { AdminSearchSchema, PageQuerySchema, pageSchema, type Page } from './admin';

/** Admin customer messages: statuses, priorities, list query and updates. Routes: see admin.ts. */

export const MESSAGE_STATUSES = ['unread', 'read', 'archived'] as const;
export const MessageStatusSchema = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;
export const MESSAGE_PRIORITIES = ['high', 'normal', 'low'] as const;
export const MessagePrioritySchema = z.enum(MESSAGE_PRIORITIES);
export type MessagePriority = z.infer<typeof MessagePrioritySchema>;

export const AdminMessagesQuerySchema = z.object({
  /** Subject, content and sender email, case-insensitive. */
  search: AdminSearchSchema,
  status: z.enum(['all', ...MESSAGE_STATUSES]).default('all'),
  priority: z.enum(['all', ...MESSAGE_PRIORITIES]).default('all'),
  ...PageQuerySchema.shape,
});
export type AdminMessagesQuery = z.output<typeof AdminMessagesQuerySchema>;

export const AdminMessageSchema = z.object({
  id: z.string(),
  /** Null for a guest's message (the contact form). */
  userId: z.string().nullable(),
  /** The account's email, or the guest's. */
  senderEmail: z.string().nullable(),
  /** The guest's name (a guest's message only). */
  guestName: z.string().nullable(),
  /** The order number a guest named, as typed; `orderLinked` when it matched their order. */
  orderReference: z.string().nullable(),
  orderLinked: z.boolean(),
  /** Replies under the message (the admin's and the sender's follow-ups). */
  replyCount: z.int(),
  subject: z.string(),
  content: z.string(),
  category: z.string(),
  status: MessageStatusSchema,
  priority: MessagePrioritySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminMessage = z.infer<typeof AdminMessageSchema>;
export const AdminMessagePageSchema = pageSchema(AdminMessageSchema);
export type AdminMessagePage = Page<AdminMessage>;

/** unread -> read -> archived, forward only; archived is final (409). Same status: no change. */
export const MessageStatusUpdateSchema = z.object({ status: MessageStatusSchema });
export const MessagePriorityUpdateSchema = z.object({ priority: MessagePrioritySchema });
