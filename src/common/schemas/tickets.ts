import { z } from 'zod';
import {
  MessagePrioritySchema,
  MessageStatusSchema,
  type MessagePriority,
  type MessageStatus,
} from './admin-messages';
import { MessageReplySchema } from './support-threads';

/**
 * A customer's support tickets (spec §2 /profile/messages, §5 Support ticket, §9 limits): the form's
 * rules once, for the form and the server. A ticket is a row of `messages`; the admin triages it
 * on the Messages page (unread -> read -> archived, priority).
 */

export const TICKET_CATEGORIES = ['general', 'order', 'product', 'technical', 'billing', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  general: 'General Inquiry',
  order: 'Order Issue',
  product: 'Product Question',
  technical: 'Technical Support',
  billing: 'Billing',
  other: 'Other',
};

export const TICKET_SUBJECT_MAX = 100;
export const TICKET_CONTENT_MAX = 2000;

/** The spec's texts, verbatim. */
export const TICKET_TEXTS = {
  required: 'Please fill in all required fields',
  created: "Support ticket created successfully! We'll get back to you soon.",
  empty: 'No support tickets yet',
  loginToCreate: 'Please log in to create a support ticket.',
  loginToView: 'Please log in to view support tickets.',
  loginToSend: 'Please log in to send messages',
  unauthorized: 'Unauthorized. Please log in again.',
  failed: 'Failed to send message',
} as const;

/** Subject and description: required, trimmed, within the limits; category defaults to general. */
export const TicketCreateSchema = z.object({
  category: z.enum(TICKET_CATEGORIES, 'Please choose a category').default('general'),
  subject: z
    .string(TICKET_TEXTS.required)
    .trim()
    .min(1, TICKET_TEXTS.required)
    .max(TICKET_SUBJECT_MAX, `Subject must be at most ${TICKET_SUBJECT_MAX} characters`),
  content: z
    .string(TICKET_TEXTS.required)
    .trim()
    .min(1, TICKET_TEXTS.required)
    .max(TICKET_CONTENT_MAX, `Description must be at most ${TICKET_CONTENT_MAX} characters`),
});
export type TicketCreate = z.output<typeof TicketCreateSchema>;

export const TicketSchema = z.object({
  id: z.string(),
  subject: z.string(),
  content: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  status: MessageStatusSchema,
  priority: MessagePrioritySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The thread under the ticket, oldest first: the shop's answers and the customer's follow-ups. */
  replies: z.array(MessageReplySchema),
});
export type Ticket = z.infer<typeof TicketSchema>;
export type { MessagePriority as TicketPriority, MessageStatus as TicketStatus };

export const TicketListSchema = z.object({ tickets: z.array(TicketSchema) });
export type TicketList = z.infer<typeof TicketListSchema>;

/** The newest tickets a customer's list shows. */
export const TICKET_LIST_LIMIT = 100;
