import { cartTopic, userTopic } from '#common/schemas/events';
import type { StockChange } from '../catalog/stock.service';
import type { EventHub } from '../events/event-hub';
import type { PlacedOrder } from '../orders/orders.service';
import type { ConfirmedPayment } from './payment-confirmation';
import type { PaymentRow } from './payments.repository';

/**
 * What the payments tell the live streams once a change committed: stock that moved, a new order,
 * a payment confirmed (its cart closed in every tab).
 */

/** Tells the shop that stock moved (the storefront and admin lists refresh). */
export async function publishStockChange(events: EventHub, change: StockChange): Promise<void> {
  if (change.productIds.length === 0) return;
  await events.publish('catalog', { type: 'stock.changed', data: { productIds: change.productIds } });
}

/** Tells the back office, and the buyer's own stream, about a new order. */
export async function publishOrderCreated(events: EventHub, order: PlacedOrder): Promise<void> {
  const data = { orderId: order.id, status: order.status };
  await events.publish('admin:orders', { type: 'order.created', data });
  if (order.userId) await events.publish(userTopic('orders', order.userId), { type: 'order.created', data });
}

/**
 * After a payment's confirmation committed: the new order, the stock that moved, and (when the
 * order is placed) `cart.closed` to every tab holding the cart the checkout came from, which
 * empties it there (a failed order leaves the cart: nothing was bought).
 */
export async function publishPaymentConfirmed(
  events: EventHub,
  payment: Pick<PaymentRow, 'reference' | 'cart_id'>,
  result: ConfirmedPayment,
): Promise<void> {
  await publishOrderCreated(events, result.order);
  await publishStockChange(events, result.change);
  if (!result.failed && payment.cart_id) {
    await events.publish(cartTopic(payment.cart_id), {
      type: 'cart.closed',
      data: { reference: payment.reference, orderId: result.order.id },
    });
  }
}
