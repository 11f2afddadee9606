import { z } from 'zod';

/**
 * One order as its signed mail link shows it to anyone holding the link (a guest has no account):
 * status, items and totals, tracking and the payment's signature; no address, no other order.
 */
export const GuestOrderSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'shipped', 'completed', 'failed']),
  createdAt: z.string(),
  paymentMethod: z.string(),
  items: z.array(
    z.object({
      title: z.string(),
      image: z.string(),
      size: z.string().nullable(),
      color: z.string().nullable(),
      quantity: z.number().int(),
      priceCents: z.number().int(),
    }),
  ),
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
  trackingNumber: z.string().nullable(),
  transactionSignature: z.string().nullable(),
  refundRequired: z.boolean(),
});
export type GuestOrder = z.infer<typeof GuestOrderSchema>;

export const GuestOrderQuerySchema = z.object({ token: z.string().max(200).default('') });

export const GUEST_ORDER_NOT_FOUND = 'This order link is invalid or has expired.';
