import type { GuestOrderMessage } from '#common/schemas/support-threads';
import type { Db } from '#server/db/client';
import { createSupportThreadsRepository } from './support-threads.repository';

/**
 * Guests' messages that named this order (the contact form, when the order number and the order's
 * shipping email both matched), each with its thread: the guest order page shows them. Its own
 * file: the orders module calls it, and support-threads.service.ts calls the orders module.
 */
export async function guestOrderMessages(db: Db, orderId: string): Promise<GuestOrderMessage[]> {
  const repo = createSupportThreadsRepository(db);
  const rows = await repo.findGuestMessagesOfOrder(orderId);
  const replies = await repo.findRepliesOf(rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    content: r.content,
    createdAt: new Date(r.created_at).toISOString(),
    replies: replies.get(r.id) ?? [],
  }));
}
