import type { Refund, RefundInput } from '#common/schemas/refund';
import type { Db } from '#server/db/client';
import type { AdminActor } from '../audit/audit.service';

/**
 * Refunds, card and crypto (issue 37, docs/decisions/015). Work in progress: the signatures the
 * lead and the order DTOs call are fixed here first; the bodies follow.
 */

export interface QueueRefundInput {
  paymentId: string;
  orderId: string | null;
  transferId: string | null;
  method: 'card' | 'sol' | 'aelo';
  kind: 'manual' | 'automatic';
  scope: 'order' | 'transfer';
  amountCents: number;
  cryptoAmount: bigint | null;
  cryptoMint: string | null;
  destination: string | null;
  reason: string;
  createdBy: string | null;
}

/** How a refund DTO names its coin and links its transaction. */
export interface RefundView {
  /** The explorer link of a refund transaction's signature (explorerTxUrl with the shop's cluster). */
  explorerUrl(signature: string): string | null;
  /** The AELO mint's decimals (SOL's are 9). */
  tokenDecimals: number;
}

/**
 * Inside the caller's transaction: records a refund to be carried out (automatic ones: kind
 * 'automatic'). Idempotent per transferId (unique). Returns the refund id, or null if that
 * transfer already has one. Call `RefundsService.kick()` after the transaction commits.
 */
export async function queueRefund(trx: Db, input: QueueRefundInput): Promise<string | null> {
  void trx;
  void input;
  throw new Error('queueRefund: not implemented yet');
}

/** Refund DTOs of these orders, oldest first (orders without refunds are absent from the map). */
export async function findRefundsOfOrders(
  db: Db,
  orderIds: readonly string[],
  view: RefundView,
): Promise<Map<string, Refund[]>> {
  void db;
  void orderIds;
  void view;
  throw new Error('findRefundsOfOrders: not implemented yet');
}

/** Refund summaries of one payment (for the payment status the shopper's page polls), oldest first. */
export async function findRefundsOfPayment(db: Db, paymentId: string, view?: RefundView): Promise<Refund[]> {
  void db;
  void paymentId;
  void view;
  throw new Error('findRefundsOfPayment: not implemented yet');
}

export interface RefundsService {
  /** An admin's refund of an order (full without amountCents, or partial), carried out by the worker. */
  refundOrder(orderId: string, input: RefundInput, admin: AdminActor): Promise<Refund>;
  /** The worker's pass: carries out every due refund (pending, or sent and to be checked). */
  processDue(): Promise<void>;
  /** Process soon (after a commit that queued a refund). */
  kick(): void;
  /** The view (cluster explorer, token decimals) for refund DTOs. */
  view(): Promise<RefundView>;
}
