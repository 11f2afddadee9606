import type { AdminMessage, MessagePriority, MessageStatus } from '#common/schemas/admin-messages';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '#server/db/client';
import type { DB } from '#server/db/schema';
import { likeContains, toNumber } from '#server/db/sql-helpers';

/** Support messages as the back office reads and triages them (sender email joined from users). */

export interface MessageFilter {
  search: string;
  status: MessageStatus | undefined;
  priority: MessagePriority | undefined;
  limit: number;
  offset: number;
}

export function createMessagesRepository(db: Db) {
  const base = () => db.selectFrom('messages as m').leftJoin('users as u', 'u.id', 'm.user_id');
  const columns = [
    'm.id',
    'm.user_id',
    'u.email',
    'm.subject',
    'm.content',
    'm.category',
    'm.status',
    'm.priority',
    'm.created_at',
    'm.updated_at',
    'm.guest_name',
    'm.guest_email',
    'm.order_reference',
    'm.order_id',
  ] as const;
  const replyCount = (eb: ExpressionBuilder<DB & { m: DB['messages'] }, 'm'>) =>
    eb
      .selectFrom('message_replies as r')
      .select((r) => r.fn.countAll<number>().as('n'))
      .whereRef('r.message_id', '=', 'm.id')
      .as('reply_count');
  type Row = {
    id: string;
    user_id: string | null;
    email: string | null;
    subject: string;
    content: string;
    category: string;
    status: MessageStatus;
    priority: MessagePriority;
    created_at: Date;
    updated_at: Date;
    guest_name: string | null;
    guest_email: string | null;
    order_reference: string | null;
    order_id: string | null;
    reply_count: number | string | bigint | null;
  };
  const toDto = (r: Row): AdminMessage => ({
    id: r.id,
    userId: r.user_id,
    senderEmail: r.email ?? r.guest_email,
    guestName: r.user_id === null ? r.guest_name : null,
    orderReference: r.order_reference,
    orderLinked: r.order_id !== null,
    replyCount: toNumber(r.reply_count ?? 0),
    subject: r.subject,
    content: r.content,
    category: r.category,
    status: r.status,
    priority: r.priority,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  });

  return {
    /** Newest first. */
    async findPage(filter: MessageFilter): Promise<{ rows: AdminMessage[]; total: number }> {
      let query = base();
      if (filter.status) query = query.where('m.status', '=', filter.status);
      if (filter.priority) query = query.where('m.priority', '=', filter.priority);
      if (filter.search) {
        const pattern = likeContains(filter.search);
        query = query.where((eb) =>
          eb.or([
            eb('m.subject', 'ilike', pattern),
            eb('m.content', 'ilike', pattern),
            eb('u.email', 'ilike', pattern),
            eb('m.guest_email', 'ilike', pattern),
            eb('m.guest_name', 'ilike', pattern),
          ]),
        );
      }
      const [rows, count] = await Promise.all([
        query
          .select(columns)
          .select(replyCount)
          .orderBy('m.created_at', 'desc')
          .orderBy('m.id', 'desc')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toDto), total: toNumber(count.count) };
    },

    async findById(id: string): Promise<AdminMessage | undefined> {
      const row = await base().select(columns).select(replyCount).where('m.id', '=', id).executeTakeFirst();
      return row ? toDto(row) : undefined;
    },

    /** Status and priority of the message, its row locked until the transaction ends. */
    async lockById(id: string): Promise<
      | {
          id: string;
          user_id: string | null;
          status: MessageStatus;
          priority: MessagePriority;
          created_at: Date;
          response_time: number | null;
        }
      | undefined
    > {
      return db
        .selectFrom('messages')
        .select(['id', 'user_id', 'status', 'priority', 'created_at', 'response_time'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    /** One customer's tickets, newest first (never another user's: the user id is the filter). */
    async listByUser(userId: string, limit: number) {
      return db
        .selectFrom('messages')
        .select(['id', 'subject', 'content', 'category', 'status', 'priority', 'created_at', 'updated_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** A new ticket: status unread, priority normal (the table's defaults). */
    async insert(ticket: { userId: string; subject: string; content: string; category: string }) {
      return db
        .insertInto('messages')
        .values({
          user_id: ticket.userId,
          subject: ticket.subject,
          content: ticket.content,
          category: ticket.category,
        })
        .returning(['id', 'subject', 'content', 'category', 'status', 'priority', 'created_at', 'updated_at'])
        .executeTakeFirstOrThrow();
    },

    async update(
      id: string,
      changes: {
        status?: MessageStatus;
        priority?: MessagePriority;
        response_time?: number;
        resolution_time?: number;
      },
      updatedAt: Date,
    ): Promise<void> {
      await db
        .updateTable('messages')
        .set({ ...changes, updated_at: updatedAt })
        .where('id', '=', id)
        .execute();
    },
  };
}
