import { z } from 'zod';
import { RefundSchema } from './refund';

/** A signed-in customer's orders (spec §2 /profile/orders): search, status and age filters. */

export const CUSTOMER_ORDER_STATUSES = ['pending', 'shipped', 'completed'] as const;
/** Spec §9: by age in days: under 7, under 30, under 90, older. */
export const ORDER_AGES = ['7d', '30d', '90d', 'older'] as const;
export type OrderAge = (typeof ORDER_AGES)[number];

export const CustomerOrdersQuerySchema = z.object({
  /** Order id, status or item title; trimmed, case-insensitive. */
  search: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v ?? ''),
  status: z.enum(['all', ...CUSTOMER_ORDER_STATUSES]).default('all'),
  age: z.enum(['all', ...ORDER_AGES]).default('all'),
});
export type CustomerOrdersQuery = z.output<typeof CustomerOrdersQuerySchema>;

/** An order's status as its shopper sees it (failed: not shipping, refund due). */
export const ShopperOrderStatusSchema = z.enum(['pending', 'shipped', 'completed', 'failed']);
export type ShopperOrderStatus = z.infer<typeof ShopperOrderStatusSchema>;

/** One line of an order as its shopper sees it (the account's list and the guest link alike). */
export const ShopperOrderItemSchema = z.object({
  title: z.string(),
  image: z.string(),
  size: z.string().nullable(),
  color: z.string().nullable(),
  quantity: z.number().int(),
  priceCents: z.number().int(),
});
export type ShopperOrderItem = z.infer<typeof ShopperOrderItemSchema>;

export const CustomerOrderSchema = z.object({
  id: z.string(),
  status: ShopperOrderStatusSchema,
  createdAt: z.string(),
  paymentMethod: z.string(),
  items: z.array(ShopperOrderItemSchema),
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  /** The AELO discount (10% of subtotal and shipping), 0 otherwise. */
  discountCents: z.number().int(),
  /** What the order charged. */
  totalCents: z.number().int(),
  /** Every refund of the order, oldest first. */
  refunds: z.array(RefundSchema),
  /** Order-scope refunds that have not failed. */
  refundedCents: z.number().int(),
  shippingInfo: z.object({
    name: z.string(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    zipCode: z.string(),
    country: z.string(),
  }),
  trackingNumber: z.string().nullable(),
  transactionSignature: z.string().nullable(),
  refundRequired: z.boolean(),
  /** Paid with test money (the local demo ledger, Stripe's test mode): nothing charged, nothing ships. */
  demo: z.boolean(),
});
export type CustomerOrder = z.infer<typeof CustomerOrderSchema>;

export const CustomerOrdersResponseSchema = z.object({
  orders: z.array(CustomerOrderSchema),
  /** Orders placed with the account's email are shown only once that email is confirmed. */
  emailVerified: z.boolean(),
});
export type CustomerOrdersResponse = z.infer<typeof CustomerOrdersResponseSchema>;

export const ORDER_TEXTS = { empty: 'No orders found' } as const;
