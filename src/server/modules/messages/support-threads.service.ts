import { UUID_PATTERN } from '#common/schemas/admin';
import { CONTACT_TEXTS, orderNumberPrefix, type ContactInput } from '#common/schemas/contact';
import { userTopic } from '#common/schemas/events';
import {
  SUPPORT_TEXTS,
  type AdminMessageThread,
  type MessageReply,
  type SupportTimes,
} from '#common/schemas/support-threads';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { ClientKeys } from '#server/lib/client-ip';
import { consumeClientLimit } from '#server/lib/client-limits';
import type { Logger } from '#server/lib/logger';
import type { RateLimiter, RateLimitRule } from '#server/db/rate-limiter';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { EventHub } from '../events/event-hub';
import type { MailService } from '../mail/mail.service';
import { supportReplyMail } from '../mail/support-mails';
import { guestOrderUrl, type OrderLinks } from '../orders/guest-order.service';
import { createMessagesRepository } from './messages.repository';
import { createSupportThreadsRepository } from './support-threads.repository';

/**
 * Support threads. The admin answers a message from the Messages page: the reply is
 * stored, an unread message becomes read, the first answer sets response_time, the sender is
 * mailed (a customer to /profile/messages, a guest with the answer itself) and the change is
 * audited ('reply_message') and announced. A customer follows up under their own ticket (another
 * customer's is a 404): the ticket is unread again. Archived is final: neither side writes under
 * it (409). Guests write through the contact form: a message without an account, linked to the
 * order they name only when its number and shipping email both match.
 */

/** Follow-ups one customer may write per hour. */
export const FOLLOW_UP_RATE_LIMIT: RateLimitRule = { max: 30, windowSeconds: 3600 };
/** Contact-form messages per client (an IPv6 /64; its /56 a multiple) per ten minutes. */
export const CONTACT_RATE_LIMIT: RateLimitRule = { max: 5, windowSeconds: 600 };

const secondsBetween = (from: Date, to: Date) =>
  Math.max(0, Math.round((to.getTime() - new Date(from).getTime()) / 1000));

/** The replies under these messages (a customer's ticket list shows each thread). */
export function repliesOfMessages(db: Db, ids: readonly string[]): Promise<Map<string, MessageReply[]>> {
  return createSupportThreadsRepository(db).findRepliesOf(ids);
}

/** The admin dashboard's support times. */
export function supportTimes(db: Db): Promise<SupportTimes> {
  return createSupportThreadsRepository(db).supportTimes();
}

export function createSupportThreadsService(deps: {
  db: Db;
  events: EventHub;
  mail: MailService;
  rateLimiter: RateLimiter;
  logger: Logger;
  links: OrderLinks;
  networkLimitMultiplier: number;
}) {
  const { db, events } = deps;
  const messages = createMessagesRepository(db);

  const announce = async (userId: string | null, id: string) => {
    await events.publish('admin:messages', { type: 'message.updated', data: { id } });
    if (userId) await events.publish(userTopic('tickets', userId), { type: 'ticket.updated', data: { id } });
  };

  const thread = async (id: string): Promise<AdminMessageThread> => {
    const message = await messages.findById(id);
    if (!message) throw new AppError('NOT_FOUND', SUPPORT_TEXTS.notFound);
    const replies = await createSupportThreadsRepository(db).findRepliesOf([id]);
    return { message, replies: replies.get(id) ?? [] };
  };

  return {
    adminThread(id: string): Promise<AdminMessageThread> {
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', SUPPORT_TEXTS.notFound);
      return thread(id);
    },

    async adminReply(id: string, body: string, actor: AdminActor): Promise<AdminMessageThread> {
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', SUPPORT_TEXTS.notFound);
      const result = await db.transaction().execute(async (trx) => {
        const current = await createMessagesRepository(trx).lockById(id);
        if (!current) throw new AppError('NOT_FOUND', SUPPORT_TEXTS.notFound);
        if (current.status === 'archived') throw new AppError('CONFLICT', SUPPORT_TEXTS.archived);
        const tx = createSupportThreadsRepository(trx);
        const reply = await tx.insertReply({ messageId: id, authorKind: 'admin', authorId: actor.id, body });
        const at = new Date(reply.createdAt);
        await createMessagesRepository(trx).update(
          id,
          {
            ...(current.status === 'unread' ? { status: 'read' as const } : {}),
            ...(current.response_time === null
              ? { response_time: secondsBetween(current.created_at, at) }
              : {}),
          },
          at,
        );
        const recipient = await tx.findRecipient(id);
        const to = recipient?.email ?? recipient?.guest_email;
        if (recipient && to) {
          const isGuest = recipient.user_id === null;
          const link = !isGuest
            ? { kind: 'account' as const, url: `${deps.links.publicUrl}/profile/messages` }
            : recipient.order_id
              ? { kind: 'order' as const, url: guestOrderUrl(deps.links, recipient.order_id) }
              : { kind: 'contact' as const, url: `${deps.links.publicUrl}/contact` };
          await deps.mail.enqueue(
            supportReplyMail({
              replyId: reply.id,
              to,
              name: isGuest ? recipient.guest_name : null,
              subject: recipient.subject,
              body,
              link,
            }),
            trx,
          );
        }
        const entry = await recordAudit(
          trx,
          {
            action: 'reply_message',
            details: {
              messageId: id,
              replyId: reply.id,
              ...(current.status === 'unread' ? { from: 'unread', to: 'read' } : {}),
              success: true,
            },
            actor,
          },
          deps.logger,
        );
        return { userId: current.user_id, entry };
      });
      await announce(result.userId, id);
      await announceAudit(events, result.entry);
      return thread(id);
    },

    /** A customer's follow-up under their own ticket: unread again for the admin. */
    async customerReply(userId: string, id: string, body: string): Promise<MessageReply> {
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', SUPPORT_TEXTS.notFound);
      await deps.rateLimiter.consume('ticket-reply', userId, FOLLOW_UP_RATE_LIMIT, SUPPORT_TEXTS.rateLimited);
      const reply = await db.transaction().execute(async (trx) => {
        const current = await createMessagesRepository(trx).lockById(id);
        // Another customer's ticket answers as one that does not exist.
        if (!current || current.user_id !== userId) throw new AppError('NOT_FOUND', SUPPORT_TEXTS.notFound);
        if (current.status === 'archived') throw new AppError('CONFLICT', SUPPORT_TEXTS.archived);
        const tx = createSupportThreadsRepository(trx);
        const created = await tx.insertReply({
          messageId: id,
          authorKind: 'customer',
          authorId: userId,
          body,
        });
        await tx.markUnread(id, new Date(created.createdAt));
        return created;
      });
      await announce(userId, id);
      return reply;
    },

    /** A guest's message from the contact form. */
    async contact(input: ContactInput, client: ClientKeys | undefined): Promise<{ id: string }> {
      if (client) {
        await consumeClientLimit(
          deps.rateLimiter,
          'contact-form',
          client,
          CONTACT_RATE_LIMIT,
          deps.networkLimitMultiplier,
          CONTACT_TEXTS.rateLimited,
        );
      }
      const repo = createSupportThreadsRepository(db);
      const prefix = input.orderNumber ? orderNumberPrefix(input.orderNumber) : undefined;
      // Linked only to exactly one order with that number and this shipping email.
      const matches = prefix ? await repo.findOrdersByNumberAndEmail(prefix, input.email) : [];
      const orderId = matches.length === 1 ? (matches[0] ?? null) : null;
      const subject = input.orderNumber
        ? `Order ${input.orderNumber.startsWith('#') ? '' : '#'}${input.orderNumber} · ${input.name}`
        : `Contact form · ${input.name}`;
      const { id } = await repo.insertGuestMessage({
        name: input.name,
        email: input.email,
        orderReference: input.orderNumber ?? null,
        orderId,
        subject: subject.slice(0, 100),
        content: input.message,
        category: input.orderNumber ? 'order' : 'general',
      });
      await events.publish('admin:messages', { type: 'message.created', data: { id } });
      return { id };
    },
  };
}

export type SupportThreadsService = ReturnType<typeof createSupportThreadsService>;
