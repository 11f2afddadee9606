import { z } from 'zod';
import { ShopperOrderItemSchema, ShopperOrderStatusSchema } from './customer-orders';
import { RefundSchema } from './refund';
import { GuestOrderMessageSchema } from './support-threads';

/**
 * One order as its signed mail link shows it to anyone holding the link (a guest has no account):
 * status, items and totals, tracking and the payment's signature; no address, no other order.
 */
export const GuestOrderSchema = z.object({
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
  trackingNumber: z.string().nullable(),
  transactionSignature: z.string().nullable(),
  refundRequired: z.boolean(),
  /** Paid with test money (the local demo ledger, Stripe's test mode): nothing charged, nothing ships. */
  demo: z.boolean(),
  /** The holder's messages about the order (the contact form) and the shop's answers, oldest first. */
  messages: z.array(GuestOrderMessageSchema),
});
export type GuestOrder = z.infer<typeof GuestOrderSchema>;

export const GuestOrderQuerySchema = z.object({ token: z.string().max(200).default('') });

export const GUEST_ORDER_NOT_FOUND = 'This order link is invalid or has expired.';
