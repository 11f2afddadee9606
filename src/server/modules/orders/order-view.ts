import { resolveImageUrl } from '#common/images';
import type { Refund } from '#common/schemas/refund';
import type { OrderStatus } from '#common/schemas/admin-orders';
import type { PaymentMethod } from '#common/schemas/checkout';
import { refundFigures } from './order-refunds';

/** What the customer's order list and the guest order page read of an order and its items. */
export interface OrderViewRow {
  id: string;
  status: OrderStatus;
  created_at: Date;
  payment_method: PaymentMethod;
  subtotal_cents: number;
  shipping_cents: number;
  discount_cents: number;
  amount_cents: number;
  tracking_number: string | null;
  transaction_signature: string | null;
  refund_required: boolean;
  demo: boolean;
  items: ReadonlyArray<{
    title: string;
    image: string;
    size: string | null;
    color: string | null;
    quantity: number;
    price_cents: number;
  }>;
}

/**
 * An order as its buyer sees it (the customer's order list and the guest order page alike): items
 * with their photos' URLs, the amounts, the refunds and what they add up to, tracking and the
 * payment's transaction. The admin's order card (orders-admin.service.ts) shows more.
 */
export function buyerOrderView(row: OrderViewRow, refunds: Refund[], imagePublicBase: string) {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    paymentMethod: row.payment_method,
    items: row.items.map((i) => ({
      title: i.title,
      image: resolveImageUrl(i.image, imagePublicBase),
      size: i.size,
      color: i.color,
      quantity: i.quantity,
      priceCents: i.price_cents,
    })),
    subtotalCents: row.subtotal_cents,
    shippingCents: row.shipping_cents,
    discountCents: row.discount_cents,
    totalCents: row.amount_cents,
    refunds,
    refundedCents: refundFigures(row.amount_cents, refunds).refundedCents,
    trackingNumber: row.tracking_number,
    transactionSignature: row.transaction_signature,
    refundRequired: row.refund_required,
    demo: row.demo,
  };
}
