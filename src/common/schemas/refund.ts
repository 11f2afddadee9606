import { z } from 'zod';
import { PaymentMethodSchema } from './checkout';

/**
 * Refunds (docs/decisions/015): an admin's, from the order view (full or partial, with a
 * reason), and the shop's own, for money that could not pay an order (a transfer after the order
 * was paid, after the payment ended, or beyond the amount due). Card refunds go through Stripe's
 * refunds API; crypto refunds are a transfer of the same coin back to the paying wallet.
 */

export const REFUND_STATUSES = ['pending', 'sent', 'awaiting_signature', 'succeeded', 'failed'] as const;
export const RefundStatusSchema = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatusSchema>;

export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  pending: 'Processing',
  sent: 'Sent, confirming',
  awaiting_signature: 'Awaiting signature',
  succeeded: 'Refunded',
  failed: 'Failed',
};

export const REFUND_REASON_MAX_LENGTH = 500;

/** One refund as the admin, the customer and the guest order page show it. */
export const RefundSchema = z.object({
  id: z.string(),
  method: PaymentMethodSchema,
  kind: z.enum(['manual', 'automatic']),
  /** order: part of what the order charged (out of revenue); transfer: money that never paid it. */
  scope: z.enum(['order', 'transfer']),
  status: RefundStatusSchema,
  /** USD value returned. */
  amountCents: z.int(),
  /** Crypto: base units returned (bigint as text), of which mint (null: SOL), to which wallet. */
  cryptoAmount: z.string().nullable(),
  cryptoSymbol: z.string().nullable(),
  /** cryptoAmount in whole coins, for display (e.g. '0.1100'). */
  cryptoAmountText: z.string().nullable(),
  destination: z.string().nullable(),
  reason: z.string(),
  /** Stripe's refund id (card) or the refund transaction's signature (crypto). */
  stripeRefundId: z.string().nullable(),
  transactionSignature: z.string().nullable(),
  /** Block-explorer link of the refund transaction, when there is one. */
  explorerUrl: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** Admin only: why a failed refund failed (its amount is refundable again). */
  error: z.string().nullable(),
});
export type Refund = z.infer<typeof RefundSchema>;

/** POST /api/admin/orders/:id/refunds. Without amountCents: everything still refundable. */
export const RefundInputSchema = z.strictObject({
  amountCents: z.int('Enter the amount in cents').min(1, 'The amount must be at least $0.01').optional(),
  reason: z
    .string()
    .trim()
    .min(1, 'Please give a reason for the refund')
    .max(REFUND_REASON_MAX_LENGTH, `The reason must be at most ${REFUND_REASON_MAX_LENGTH} characters`),
});
export type RefundInput = z.input<typeof RefundInputSchema>;

export const REFUND_MESSAGES = {
  nothingLeft: 'This order has already been fully refunded',
  tooMuch: 'The refund is more than what remains refundable on this order',
  notPaid: 'This order has no payment to refund',
  inProgress: 'A refund of this order is still in progress; try again when it has finished',
  created: 'Refund started',
} as const;

/**
 * GET /api/admin/refunds/:id/sign-request: a crypto refund awaiting the shop wallet's signature (no
 * key configured on this cluster), as a Solana Pay transaction request link for the admin's wallet.
 */
export const RefundSignRequestSchema = z.object({
  /** `solana:<https URL>`: open it in (or scan it with) the wallet holding the shop wallet's key. */
  url: z.string(),
  /** The wallet that must sign (the shop wallet). */
  signer: z.string(),
  expiresAt: z.string(),
});
export type RefundSignRequest = z.infer<typeof RefundSignRequestSchema>;
