import type { Db } from '#server/db/client';

export function createGuestOrderRepository(db: Db) {
  return {
    async findWithItems(id: string) {
      const order = await db
        .selectFrom('orders')
        .select([
          'id',
          'status',
          'created_at',
          'payment_method',
          'subtotal_cents',
          'shipping_cents',
          'discount_cents',
          'amount_cents',
          'shipping_info',
          'shipping_email',
          'tracking_number',
          'transaction_signature',
          'refund_required',
          'demo',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!order) return null;
      const items = await db
        .selectFrom('order_items')
        .select(['title', 'image', 'size', 'color', 'quantity', 'price_cents'])
        .where('order_id', '=', id)
        .orderBy('id')
        .execute();
      return { ...order, items };
    },
  };
}
