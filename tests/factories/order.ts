import type { Db } from '#server/db/client';
import type { OrderStatus } from '#common/schemas/admin-orders';
import type { PaymentMethod } from '#common/schemas/checkout';

/**
 * Orders for tests, inserted directly (orders + order_items rows) the way a confirmed payment
 * leaves them. Each call gets distinct values; pass overrides for what the test is about.
 */

export interface OrderItemOverrides {
  productId?: string | null;
  title?: string;
  image?: string;
  category?: string;
  size?: string | null;
  color?: string | null;
  quantity?: number;
  priceCents?: number;
}

export interface OrderOverrides {
  email?: string;
  firstName?: string;
  lastName?: string;
  status?: OrderStatus;
  paymentMethod?: PaymentMethod;
  userId?: string | null;
  createdAt?: Date;
  trackingNumber?: string | null;
  transactionSignature?: string | null;
  refundRequired?: boolean;
  refundReason?: string | null;
  /** Defaults to one item; the amounts follow the items (shipping 0, no discount) unless given. */
  items?: OrderItemOverrides[];
  shippingCents?: number;
  /** An AELO order's 10% off (subtotal and shipping); the amount follows unless given. */
  discountCents?: number;
  amountCents?: number;
}

export interface CreatedOrder {
  id: string;
  email: string;
  amountCents: number;
  itemsRevenueCents: number;
  createdAt: Date;
}

let sequence = 0;

export async function createOrder(db: Db, overrides: OrderOverrides = {}): Promise<CreatedOrder> {
  const n = ++sequence;
  const items = (overrides.items ?? [{}]).map((i, index) => ({
    product_id: i.productId ?? null,
    title: i.title ?? `Test Item ${n}.${index + 1}`,
    image: i.image ?? `products/1700000000000-order${n}-800.webp`,
    category: i.category ?? 'womens-leggings',
    size: i.size === undefined ? 'M' : i.size,
    color: i.color === undefined ? 'Black' : i.color,
    quantity: i.quantity ?? 1,
    price_cents: i.priceCents ?? 2500,
  }));
  const itemsRevenueCents = items.reduce((sum, i) => sum + i.price_cents * i.quantity, 0);
  const shippingCents = overrides.shippingCents ?? 0;
  const discountCents = overrides.discountCents ?? 0;
  const amountCents = overrides.amountCents ?? itemsRevenueCents + shippingCents - discountCents;
  const email = (overrides.email ?? `customer${n}@example.com`).toLowerCase();
  const createdAt = overrides.createdAt ?? new Date();
  const shippingInfo = {
    firstName: overrides.firstName ?? 'Test',
    lastName: overrides.lastName ?? `Customer${n}`,
    email,
    phone: '5555550100',
    address: `${n} Test Street`,
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    country: 'US',
  };
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .insertInto('orders')
      .values({
        status: overrides.status ?? 'pending',
        payment_method: overrides.paymentMethod ?? 'card',
        user_id: overrides.userId ?? null,
        subtotal_cents: itemsRevenueCents,
        shipping_cents: shippingCents,
        discount_cents: discountCents,
        amount_cents: amountCents,
        shipping_info: JSON.stringify(shippingInfo),
        shipping_email: email,
        tracking_number: overrides.trackingNumber ?? null,
        transaction_signature: overrides.transactionSignature ?? null,
        refund_required: overrides.refundRequired ?? false,
        refund_reason: overrides.refundReason ?? null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('order_items')
      .values(items.map((i) => ({ ...i, order_id: order.id })))
      .execute();
    return { id: order.id, email, amountCents, itemsRevenueCents, createdAt };
  });
}

/** A valid checkout's shipping details (the checkout's ShippingInfo), for tests that post one. */
export const SHIPPING_INFO = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '(555) 123-4567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};
