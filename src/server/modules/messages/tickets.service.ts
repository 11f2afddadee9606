import {
  TICKET_LIST_LIMIT,
  type Ticket,
  type TicketCategory,
  type TicketCreate,
  type TicketList,
} from '#common/schemas/tickets';
import { userTopic } from '#common/schemas/events';
import type { Db } from '#server/db/client';
import type { RateLimiter, RateLimitRule } from '#server/db/rate-limiter';
import type { EventHub } from '../events/event-hub';
import type { MessageReply } from '#common/schemas/support-threads';
import { createMessagesRepository } from './messages.repository';
import { repliesOfMessages } from './support-threads.service';

/** A customer may open this many tickets per hour (a flood would bury everyone else's). */
export const TICKET_RATE_LIMIT: RateLimitRule = { max: 10, windowSeconds: 3600 };

/**
 * A signed-in customer's support tickets: their own list (by user id, never widened by input) and
 * the thread under each (support-threads.service.ts), and new tickets, stored as typed (the browser shows them as text) and announced at once to the
 * admin's Messages page and to the customer's other tabs.
 */
export function createTicketsService(deps: { db: Db; events: EventHub; rateLimiter: RateLimiter }) {
  const repo = createMessagesRepository(deps.db);
  const toTicket = (row: Awaited<ReturnType<typeof repo.insert>>, replies: MessageReply[] = []): Ticket => ({
    id: row.id,
    subject: row.subject,
    content: row.content,
    category: row.category as TicketCategory,
    status: row.status,
    priority: row.priority,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    replies,
  });

  return {
    async list(userId: string): Promise<TicketList> {
      const rows = await repo.listByUser(userId, TICKET_LIST_LIMIT);
      const replies = await repliesOfMessages(
        deps.db,
        rows.map((r) => r.id),
      );
      return { tickets: rows.map((r) => toTicket(r, replies.get(r.id))) };
    },

    async create(userId: string, input: TicketCreate): Promise<Ticket> {
      await deps.rateLimiter.consume(
        'ticket-create',
        userId,
        TICKET_RATE_LIMIT,
        'You have opened many tickets in a short time. Please try again later.',
      );
      const ticket = toTicket(await repo.insert({ userId, ...input }));
      await deps.events.publish('admin:messages', { type: 'message.created', data: { id: ticket.id } });
      await deps.events.publish(userTopic('tickets', userId), {
        type: 'ticket.created',
        data: { id: ticket.id },
      });
      return ticket;
    },
  };
}

export type TicketsService = ReturnType<typeof createTicketsService>;
