import { z } from 'zod';
import { AdminMessageSchema } from './admin-messages';

/**
 * Support threads: a ticket is its first message plus replies, the admin's answers and
 * the sender's follow-ups. A reply has the limits of a ticket's description. The admin answers on
 * the Messages page; the customer reads and follows up under the ticket in /profile/messages; a
 * guest's ticket (the contact form) is answered by mail and, when it named their order, on the
 * order's page.
 */

/** A reply's limit: a ticket's description's (REPLY_BODY_MAX, spec §9). */
export const REPLY_BODY_MAX = 2000;

export const REPLY_AUTHOR_KINDS = ['customer', 'admin', 'guest'] as const;
export type ReplyAuthorKind = (typeof REPLY_AUTHOR_KINDS)[number];

export const SUPPORT_TEXTS = {
  replyRequired: 'Please write a reply',
  replyTooLong: `A reply must be at most ${REPLY_BODY_MAX} characters`,
  archived: 'This ticket is closed. Please open a new ticket.',
  notFound: 'Ticket not found',
  replySent: 'Reply sent',
  followUpSent: 'Your reply was sent',
  failed: 'Failed to send the reply',
  rateLimited: 'You have sent many replies in a short time. Please try again later.',
} as const;

export const MessageReplyInputSchema = z.object({
  body: z
    .string(SUPPORT_TEXTS.replyRequired)
    .trim()
    .min(1, SUPPORT_TEXTS.replyRequired)
    .max(REPLY_BODY_MAX, SUPPORT_TEXTS.replyTooLong),
});
export type MessageReplyInput = z.output<typeof MessageReplyInputSchema>;

export const MessageReplySchema = z.object({
  id: z.string(),
  authorKind: z.enum(REPLY_AUTHOR_KINDS),
  body: z.string(),
  createdAt: z.string(),
});
export type MessageReply = z.infer<typeof MessageReplySchema>;

/** One message with its replies, oldest first, as the admin opens it. */
export const AdminMessageThreadSchema = z.object({
  message: AdminMessageSchema,
  replies: z.array(MessageReplySchema),
});
export type AdminMessageThread = z.infer<typeof AdminMessageThreadSchema>;

/** A guest's message as their order's page shows it: their text and the thread under it. */
export const GuestOrderMessageSchema = z.object({
  id: z.string(),
  content: z.string(),
  createdAt: z.string(),
  replies: z.array(MessageReplySchema),
});
export type GuestOrderMessage = z.infer<typeof GuestOrderMessageSchema>;

/**
 * Average support times over the tickets that have them, in seconds (the spec's response_time:
 * first admin reply; resolution_time: archived); null averages when none has one yet.
 */
export const SupportTimesSchema = z.object({
  answered: z.int(),
  averageResponseSeconds: z.number().nullable(),
  resolved: z.int(),
  averageResolutionSeconds: z.number().nullable(),
});
export type SupportTimes = z.infer<typeof SupportTimesSchema>;

export const SUPPORT_API = {
  adminThread: (id: string) => `/api/admin/messages/${encodeURIComponent(id)}/thread`,
  adminReplies: (id: string) => `/api/admin/messages/${encodeURIComponent(id)}/replies`,
  ticketReplies: (id: string) => `/api/tickets/${encodeURIComponent(id)}/replies`,
  contact: '/api/contact',
} as const;

/** "2h 5m", "3d 4h", "12m", "under a minute": a support time as the dashboard shows it. */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours}h ${minutes % 60}m` : `${hours}h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days}d ${hours % 24}h` : `${days}d`;
}
