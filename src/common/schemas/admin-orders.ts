import { z } from 'zod';
import { INVALID_TRACKING_NUMBER, isCarrierTrackingNumber, normalizeTrackingNumber } from '../tracking';
import { PaymentMethodSchema } from './checkout';
import { RefundSchema } from './refund';
import { ADMIN_MESSAGES, AdminSearchSchema, PageQuerySchema, pageSchema, type Page } from './admin';

/** Admin orders: list query, the order DTO and the status/tracking update. Routes: see admin.ts. */

export const ORDER_STATUSES = ['pending', 'shipped', 'completed', 'failed'] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  shipped: 'Shipped',
  completed: 'Completed',
  failed: 'Failed',
};

export const AdminOrdersQuerySchema = z.object({
  search: AdminSearchSchema,
  status: z.enum(['all', ...ORDER_STATUSES]).default('all'),
  ...PageQuerySchema.shape,
});
export type AdminOrdersQuery = z.output<typeof AdminOrdersQuerySchema>;

export const AdminShippingInfoSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  country: z.string(),
});
export type AdminShippingInfo = z.infer<typeof AdminShippingInfoSchema>;

export const AdminOrderItemSchema = z.object({
  id: z.string(),
  /** null once the product was deleted: the line keeps its snapshot. */
  productId: z.string().nullable(),
  title: z.string(),
  /** Storage key or absolute URL as stored; `imageUrl` is ready for <img src>. */
  image: z.string(),
  imageUrl: z.string(),
  category: z.string(),
  size: z.string().nullable(),
  color: z.string().nullable(),
  quantity: z.int(),
  priceCents: z.int(),
});
export type AdminOrderItem = z.infer<typeof AdminOrderItemSchema>;

/** An order's mails, by what they told the shopper. */
export const ORDER_MAIL_KINDS = ['confirmed', 'payment-refund', 'shipped', 'status', 'refunded'] as const;
export type OrderMailKind = (typeof ORDER_MAIL_KINDS)[number];
export const ORDER_MAIL_LABELS: Record<OrderMailKind, string> = {
  confirmed: 'Order confirmed',
  'payment-refund': 'Payment refunded',
  shipped: 'Has shipped',
  status: 'Status update',
  refunded: 'Refund',
};

/** A 'has shipped' mail is sent at most once an hour per order, whatever the tracking number saved. */
export const SHIPPED_MAIL_INTERVAL_MS = 60 * 60_000;

export const AdminOrderMailSchema = z.object({
  kind: z.enum(ORDER_MAIL_KINDS),
  subject: z.string(),
  to: z.string(),
  /** pending: queued, not yet handed to the mail server; failed: gave up after its retries. */
  status: z.enum(['pending', 'sent', 'failed']),
  queuedAt: z.string(),
  sentAt: z.string().nullable(),
});
export type AdminOrderMail = z.infer<typeof AdminOrderMailSchema>;

export const AdminOrderSchema = z.object({
  id: z.string(),
  /** First 8 characters of the id (spec §9). */
  shortId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: OrderStatusSchema,
  trackingNumber: z.string().nullable(),
  paymentMethod: PaymentMethodSchema,
  subtotalCents: z.int(),
  shippingCents: z.int(),
  discountCents: z.int(),
  /** What the customer paid. */
  amountCents: z.int(),
  transactionSignature: z.string().nullable(),
  /** Block-explorer link for the transaction, when there is one. */
  explorerUrl: z.string().nullable(),
  refundRequired: z.boolean(),
  refundReason: z.string().nullable(),
  /** Paid with test money (the local demo ledger, Stripe's test mode): nothing charged, nothing ships. */
  demo: z.boolean(),
  /** Every refund of the order (order-scope and returned transfers alike), oldest first. */
  refunds: z.array(RefundSchema),
  /** Order-scope refunds that have not failed: what is out of revenue. */
  refundedCents: z.int(),
  /** amountCents - refundedCents (never below 0): what a Refund may still return. */
  refundableCents: z.int(),
  userId: z.string().nullable(),
  shippingInfo: AdminShippingInfoSchema,
  items: z.array(AdminOrderItemSchema),
  /** The mails the order has sent (or queued), oldest first. */
  mails: z.array(AdminOrderMailSchema),
});
export type AdminOrder = z.infer<typeof AdminOrderSchema>;
export const AdminOrderPageSchema = pageSchema(AdminOrderSchema);
export type AdminOrderPage = Page<AdminOrder>;

export const TRACKING_NUMBER_MAX_LENGTH = 100;

/**
 * The order edit form. As the spec's client: a value is applied only when non-empty (blank or
 * missing fields leave the stored value alone); at least one must be given.
 */
export const AdminOrderUpdateSchema = z
  .object({
    status: z
      .union([OrderStatusSchema, z.literal('')])
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    /** Checked against the carrier's formats; stored without spaces, upper-case. */
    trackingNumber: z
      .string()
      .trim()
      .max(
        TRACKING_NUMBER_MAX_LENGTH,
        `Tracking number must be at most ${TRACKING_NUMBER_MAX_LENGTH} characters`,
      )
      .refine((v) => v === '' || isCarrierTrackingNumber(normalizeTrackingNumber(v)), INVALID_TRACKING_NUMBER)
      .optional()
      .transform((v) => (v === '' || v === undefined ? undefined : normalizeTrackingNumber(v))),
  })
  .refine((v) => v.status !== undefined || v.trackingNumber !== undefined, {
    message: ADMIN_MESSAGES.nothingToUpdate,
    path: ['status'],
  });
export type AdminOrderUpdate = z.output<typeof AdminOrderUpdateSchema>;
