import type { PricedLine } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import type { OrderStatus } from '#common/schemas/admin-orders';
import type { PaymentMethod } from '#common/schemas/checkout';
import { creditOrderToPools } from '../airdrops/reward-pools.service';
import { createOrdersRepository } from './orders.repository';

/**
 * Orders are created here and only here: by a payment the server confirmed (a signed Stripe
 * webhook today; an on-chain transfer in the crypto issue), inside that confirmation's
 * transaction. One payment makes one order (orders.payment_id is unique).
 */

export interface PlaceOrderInput {
  paymentId: string;
  userId: string | null;
  paymentMethod: PaymentMethod;
  amounts: { subtotalCents: number; shippingCents: number; discountCents: number; totalCents: number };
  shippingInfo: Record<string, string>;
  lines: readonly PricedLine[];
  /** On-chain payments only; card payments keep their Stripe ids on the payment. */
  transactionSignature: string | null;
  /** A payment confirmed after its stock was lost: a failed order, marked for refund. */
  failure?: { refundReason: string };
  /**
   * Paid with test money: crypto on the local demo ledger, or a card in Stripe's test mode. Nothing
   * was charged and the order does not ship; every view of it and its mail say so.
   */
  demo: boolean;
}

export interface PlacedOrder {
  id: string;
  status: OrderStatus;
  userId: string | null;
  amountCents: number;
  refundRequired: boolean;
  createdAt: string;
}

export async function placeOrder(db: Db, input: PlaceOrderInput): Promise<PlacedOrder> {
  const repo = createOrdersRepository(db);
  const status: OrderStatus = input.failure ? 'failed' : 'pending';
  const order = await repo.insertOrder({
    paymentId: input.paymentId,
    userId: input.userId,
    status,
    paymentMethod: input.paymentMethod,
    subtotalCents: input.amounts.subtotalCents,
    shippingCents: input.amounts.shippingCents,
    discountCents: input.amounts.discountCents,
    amountCents: input.amounts.totalCents,
    shippingInfo: input.shippingInfo,
    shippingEmail: (input.shippingInfo.email ?? '').trim().toLowerCase(),
    transactionSignature: input.transactionSignature,
    refundRequired: Boolean(input.failure),
    refundReason: input.failure?.refundReason ?? null,
    demo: input.demo,
  });
  // A product deleted since the checkout keeps its line, without the link.
  const existing = await repo.productIdsThatExist(input.lines.map((l) => l.productId));
  await repo.insertItems(
    order.id,
    input.lines.map((l) => ({
      productId: existing.has(l.productId) ? l.productId : null,
      title: l.title,
      image: l.image,
      category: l.category,
      size: l.size,
      color: l.color,
      quantity: l.quantity,
      priceCents: l.priceCents,
    })),
  );
  // The revenue split's shares go to the reward pools with the order (a refunded one pays none).
  if (!input.failure) await creditOrderToPools(db, { id: order.id, totalCents: input.amounts.totalCents });
  return {
    id: order.id,
    status,
    userId: input.userId,
    amountCents: input.amounts.totalCents,
    refundRequired: Boolean(input.failure),
    createdAt: order.created_at.toISOString(),
  };
}

export async function findOrderOfPayment(
  db: Db,
  paymentId: string,
): Promise<{ id: string; status: OrderStatus; userId: string | null; demo: boolean } | null> {
  const row = await createOrdersRepository(db).findByPaymentId(paymentId);
  return row ? { id: row.id, status: row.status, userId: row.user_id, demo: row.demo } : null;
}
