import type { PricedLine } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import type { OrderStatus } from '#common/schemas/admin-orders';
import type { PaymentMethod } from '#common/schemas/checkout';

export interface NewOrderRow {
  paymentId: string;
  userId: string | null;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  subtotalCents: number;
  shippingCents: number;
  discountCents: number;
  amountCents: number;
  shippingInfo: Record<string, string>;
  shippingEmail: string;
  transactionSignature: string | null;
  refundRequired: boolean;
  refundReason: string | null;
  /** Paid with test money (the demo ledger, Stripe's test mode). */
  demo: boolean;
}

/** A priced line as an order item: its product link is dropped when the product is gone. */
export type NewOrderItemRow = Omit<PricedLine, 'productId' | 'lineTotalCents'> & { productId: string | null };

export function createOrdersRepository(db: Db) {
  return {
    async insertOrder(order: NewOrderRow): Promise<{ id: string; created_at: Date }> {
      const now = new Date();
      return db
        .insertInto('orders')
        .values({
          payment_id: order.paymentId,
          user_id: order.userId,
          status: order.status,
          payment_method: order.paymentMethod,
          subtotal_cents: order.subtotalCents,
          shipping_cents: order.shippingCents,
          discount_cents: order.discountCents,
          amount_cents: order.amountCents,
          shipping_info: JSON.stringify(order.shippingInfo),
          shipping_email: order.shippingEmail,
          transaction_signature: order.transactionSignature,
          refund_required: order.refundRequired,
          refund_reason: order.refundReason,
          demo: order.demo,
          created_at: now,
          updated_at: now,
        })
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
    },

    async insertItems(orderId: string, items: readonly NewOrderItemRow[]): Promise<void> {
      if (items.length === 0) return;
      await db
        .insertInto('order_items')
        .values(
          items.map((i) => ({
            order_id: orderId,
            product_id: i.productId,
            title: i.title,
            image: i.image,
            category: i.category,
            size: i.size,
            color: i.color,
            quantity: i.quantity,
            price_cents: i.priceCents,
          })),
        )
        .execute();
    },

    async findByPaymentId(
      paymentId: string,
    ): Promise<{ id: string; status: OrderStatus; user_id: string | null; demo: boolean } | null> {
      const row = await db
        .selectFrom('orders')
        .select(['id', 'status', 'user_id', 'demo'])
        .where('payment_id', '=', paymentId)
        .executeTakeFirst();
      return row ?? null;
    },

    async productIdsThatExist(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('products')
        .select('id')
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
