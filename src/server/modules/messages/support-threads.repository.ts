import { sql } from 'kysely';
import type { MessageReply, ReplyAuthorKind } from '#common/schemas/support-threads';
import type { Db } from '#server/db/client';
import { toNumber } from '#server/db/sql-helpers';

/** Replies under support messages, guests' messages, and the support times the dashboard shows. */

type ReplyRow = { id: string; author_kind: ReplyAuthorKind; body: string; created_at: Date };
const toReply = (r: ReplyRow): MessageReply => ({
  id: r.id,
  authorKind: r.author_kind,
  body: r.body,
  createdAt: new Date(r.created_at).toISOString(),
});

export function createSupportThreadsRepository(db: Db) {
  return {
    async insertReply(reply: {
      messageId: string;
      authorKind: ReplyAuthorKind;
      authorId: string | null;
      body: string;
    }): Promise<MessageReply> {
      const row = await db
        .insertInto('message_replies')
        .values({
          message_id: reply.messageId,
          author_kind: reply.authorKind,
          author_id: reply.authorId,
          body: reply.body,
        })
        .returning(['id', 'author_kind', 'body', 'created_at'])
        .executeTakeFirstOrThrow();
      return toReply(row);
    },

    /** The replies of these messages, each message's oldest first. */
    async findRepliesOf(messageIds: readonly string[]): Promise<Map<string, MessageReply[]>> {
      const byMessage = new Map<string, MessageReply[]>();
      if (messageIds.length === 0) return byMessage;
      const rows = await db
        .selectFrom('message_replies')
        .select(['id', 'message_id', 'author_kind', 'body', 'created_at'])
        .where('message_id', 'in', messageIds)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      for (const row of rows) {
        const list = byMessage.get(row.message_id) ?? [];
        list.push(toReply(row));
        byMessage.set(row.message_id, list);
      }
      return byMessage;
    },

    /** Who a message's answers go to: the account's email, or the guest's; and what it is about. */
    async findRecipient(messageId: string) {
      return db
        .selectFrom('messages as m')
        .leftJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.id', 'm.user_id', 'm.subject', 'm.guest_name', 'm.guest_email', 'm.order_id', 'u.email'])
        .where('m.id', '=', messageId)
        .executeTakeFirst();
    },

    /** Orders whose id starts with `prefix` and whose shipping email is `email` (at most two). */
    async findOrdersByNumberAndEmail(prefix: string, email: string): Promise<string[]> {
      const rows = await db
        .selectFrom('orders')
        .select('id')
        .where(sql<string>`id::text`, 'like', `${prefix}%`)
        .where(sql<string>`lower(shipping_email)`, '=', email.toLowerCase())
        .limit(2)
        .execute();
      return rows.map((r) => r.id);
    },

    async insertGuestMessage(message: {
      name: string;
      email: string;
      orderReference: string | null;
      orderId: string | null;
      subject: string;
      content: string;
      category: string;
    }): Promise<{ id: string }> {
      return db
        .insertInto('messages')
        .values({
          user_id: null,
          guest_name: message.name,
          guest_email: message.email,
          order_reference: message.orderReference,
          order_id: message.orderId,
          subject: message.subject,
          content: message.content,
          category: message.category,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    /** Guests' messages that named this order, oldest first. */
    async findGuestMessagesOfOrder(orderId: string) {
      return db
        .selectFrom('messages')
        .select(['id', 'content', 'created_at'])
        .where('order_id', '=', orderId)
        .where('user_id', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** A customer follow-up: back to unread (never from archived: the caller checks). */
    async markUnread(messageId: string, at: Date): Promise<void> {
      await db
        .updateTable('messages')
        .set({ status: 'unread', updated_at: at })
        .where('id', '=', messageId)
        .execute();
    },

    async supportTimes() {
      const row = await db
        .selectFrom('messages')
        .select((eb) => [
          eb.fn.count<string>('response_time').as('answered'),
          eb.fn.avg<string | null>('response_time').as('avg_response'),
          eb.fn.count<string>('resolution_time').as('resolved'),
          eb.fn.avg<string | null>('resolution_time').as('avg_resolution'),
        ])
        .executeTakeFirstOrThrow();
      const avg = (v: string | number | null) => (v === null ? null : Math.round(Number(v)));
      return {
        answered: toNumber(row.answered),
        averageResponseSeconds: avg(row.avg_response),
        resolved: toNumber(row.resolved),
        averageResolutionSeconds: avg(row.avg_resolution),
      };
    },
  };
}
