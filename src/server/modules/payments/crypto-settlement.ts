import { formatCryptoAmount } from '#common/crypto-amounts';
import type { Tx } from '#server/db/client';
import { paymentRefundMail } from '../mail/mail-templates';
import { queueMail } from '../mail/mail.service';
import type { OrderLinks } from '../orders/guest-order.service';
import { findOrderOfPayment } from '../orders/orders.service';
import { queueRefund } from '../refunds/refunds.service';
import { confirmPaymentInTransaction, type ConfirmedPayment } from './payment-confirmation';
import { createPaymentTransfersRepository, type TransferRow } from './payment-transfers.repository';
import { createPaymentsRepository, type PaymentRow } from './payments.repository';
import { checkoutStatusUrl } from './payment-access';

/**
 * What one valid transfer naming a crypto payment's reference does (decision 015), inside
 * the caller's transaction holding the payment's row lock. Every transfer is recorded once
 * (payment_transfers, unique signature), then:
 *
 * - the checkout is closed (its order was paid): the transfer paid nothing and is refunded whole;
 * - the transfers still counting toward the payment (not applied, not refunded) add up to less than
 *   the amount due: while the payment is open it waits for the rest (the status says what arrived
 *   and what is left); once it has ended (expired, cancelled) the money is refunded;
 * - they reach the amount due: the order is confirmed at the payment's quote (late or not: its
 *   stock is taken again if its hold ended, else the order fails and the money is refunded in
 *   full), each transfer is applied oldest first, and what is beyond the amount due is refunded.
 *
 * Refunds go back to the wallet that paid each transfer, through the refund path the admin uses.
 */

export const SETTLEMENT_REASONS = {
  closed: 'Paid to a checkout whose order was already paid',
  ended: 'Paid after the checkout ended, short of the amount due',
  endedShort: 'The checkout ended before the full amount arrived',
  excess: 'Paid more than the amount due',
} as const;

export interface SeenTransfer {
  signature: string;
  payer: string;
  amount: bigint;
  blockTime: bigint | null;
}

export type Settlement =
  | { kind: 'known' }
  | { kind: 'partial'; received: bigint }
  | { kind: 'refunded' }
  | { kind: 'confirmed'; result: ConfirmedPayment };

/** How many decimals, and which symbol, each crypto method's amounts are in. */
export type CoinInfo = Record<'sol' | 'aelo', { decimals: number; symbol: string }>;

export interface SettlementContext {
  links: OrderLinks;
  now: Date;
  /** The coins' decimals and symbols, for the texts. */
  coins: CoinInfo;
  /**
   * The chain is the local demo ledger (LOCAL_LEDGER): the orders its transfers pay are marked demo.
   * Unset where nothing is confirmed (ending a payment).
   */
  demoLedger?: boolean;
}

function coinOf(payment: PaymentRow, ctx: SettlementContext): { decimals: number; symbol: string } {
  return ctx.coins[payment.method === 'aelo' ? 'aelo' : 'sol'];
}

/** USD cents a part of the payment's coin amount is worth at its quote (rounded down). */
export function centsOfPart(payment: PaymentRow, part: bigint): number {
  const due = BigInt(payment.crypto_amount ?? '0');
  if (due <= 0n) return 0;
  const cents = (part * BigInt(payment.amount_cents)) / due;
  return Number(cents > BigInt(payment.amount_cents) ? BigInt(payment.amount_cents) : cents);
}

/** Refunds these transfers (the part of each not applied to an order) back to their payers. */
async function refundTransfers(
  trx: Tx,
  payment: PaymentRow,
  transfers: readonly TransferRow[],
  reason: string,
  orderId: string | null,
  ctx: SettlementContext,
): Promise<number> {
  let queued = 0;
  for (const transfer of transfers) {
    const part = transfer.amount - transfer.appliedAmount;
    // Dust (worth less than a cent) would cost more in fees than it returns: kept, and noted.
    if (part <= 0n || centsOfPart(payment, part) < 1) {
      if (part > 0n) {
        await createPaymentsRepository(trx).insertEvent(payment.id, payment.status, payment.status, {
          source: 'chain',
          dust: { signature: transfer.signature, amount: part.toString(), payer: transfer.payer },
        });
      }
      continue;
    }
    const id = await queueRefund(trx, {
      paymentId: payment.id,
      orderId,
      transferId: transfer.id,
      method: payment.method,
      kind: 'automatic',
      scope: 'transfer',
      amountCents: centsOfPart(payment, part),
      cryptoAmount: part,
      cryptoMint: payment.crypto_mint,
      destination: transfer.payer,
      reason,
      createdBy: null,
    });
    if (id === null) continue;
    queued++;
    const email = (payment.shipping_info.email ?? '').trim().toLowerCase();
    if (email) {
      await queueMail(
        trx,
        paymentRefundMail({
          refundId: id,
          to: email,
          amountText: `${formatCryptoAmount(part, coinOf(payment, ctx).decimals)} ${coinOf(payment, ctx).symbol}`,
          reason,
          wallet: transfer.payer,
          statusUrl: checkoutStatusUrl(ctx.links, payment.reference),
        }),
      );
    }
  }
  return queued;
}

/** 'Received 0.1100 of 0.2200 SOL' and the rest, as the payment keeps it (payments.error). */
function partialNote(payment: PaymentRow, received: bigint, ctx: SettlementContext): string {
  const due = BigInt(payment.crypto_amount ?? '0');
  const { decimals, symbol } = coinOf(payment, ctx);
  return `underpaid: received ${formatCryptoAmount(received, decimals)} of ${formatCryptoAmount(due, decimals)} ${symbol}`;
}

export async function settleTransfer(
  trx: Tx,
  payment: PaymentRow,
  transfer: SeenTransfer,
  ctx: SettlementContext,
): Promise<Settlement> {
  const repo = createPaymentsRepository(trx);
  const transfers = createPaymentTransfersRepository(trx);
  const paidAt = transfer.blockTime === null ? ctx.now : new Date(Number(transfer.blockTime) * 1000);
  const transferId = await transfers.insertTransfer({
    paymentId: payment.id,
    signature: transfer.signature,
    payer: transfer.payer,
    amount: transfer.amount,
    blockTime: paidAt,
  });
  if (transferId === null) return { kind: 'known' };
  await repo.insertEvent(payment.id, payment.status, payment.status, {
    source: 'chain',
    transfer: { signature: transfer.signature, amount: transfer.amount.toString(), payer: transfer.payer },
  });
  const recorded: TransferRow = {
    id: transferId,
    signature: transfer.signature,
    payer: transfer.payer,
    amount: transfer.amount,
    appliedAmount: 0n,
    blockTime: paidAt,
  };

  if (payment.status === 'confirmed') {
    const order = await findOrderOfPayment(trx, payment.id);
    await refundTransfers(trx, payment, [recorded], SETTLEMENT_REASONS.closed, order?.id ?? null, ctx);
    return { kind: 'refunded' };
  }

  const open = await transfers.findOpenTransfers(payment.id);
  const due = BigInt(payment.crypto_amount ?? '0');
  const received = open.reduce((sum, t) => sum + t.amount, 0n);
  if (received < due) {
    if (payment.status === 'pending') {
      await repo.update(payment.id, { error: partialNote(payment, received, ctx) });
      return { kind: 'partial', received };
    }
    // The payment ended (expired, cancelled, failed): nothing can complete it any more.
    await refundTransfers(trx, payment, open, SETTLEMENT_REASONS.ended, null, ctx);
    return { kind: 'refunded' };
  }

  // The amount due is reached: apply the transfers oldest first; what is beyond it goes back.
  let left = due;
  const excess: TransferRow[] = [];
  for (const t of open) {
    const applied = t.amount < left ? t.amount : left;
    left -= applied;
    if (applied > 0n) await transfers.setApplied(t.id, applied);
    if (applied < t.amount) excess.push({ ...t, appliedAmount: applied });
  }
  const late = payment.status !== 'pending' || paidAt.getTime() > payment.expires_at.getTime();
  const result = await confirmPaymentInTransaction(trx, payment, {
    source: 'chain',
    refusal: null,
    late,
    patch: { watch_lease_until: null },
    transactionSignature: transfer.signature,
    detail: {
      signature: transfer.signature,
      received: received.toString(),
      transfers: open.length,
      blockTime: transfer.blockTime?.toString() ?? null,
    },
    now: ctx.now,
    links: ctx.links,
    demo: ctx.demoLedger === true,
  });
  // A failed order was refunded whole (each transfer in full) by its confirmation.
  if (!result.failed)
    await refundTransfers(trx, payment, excess, SETTLEMENT_REASONS.excess, result.order.id, ctx);
  return { kind: 'confirmed', result };
}

/**
 * A crypto payment that ends without an order (expired, cancelled, failed at checkout): what
 * arrived toward it is refunded (inside the ending transaction).
 */
export async function refundEndedPayment(
  trx: Tx,
  payment: PaymentRow,
  ctx: SettlementContext,
): Promise<number> {
  if (payment.method === 'card') return 0;
  const open = await createPaymentTransfersRepository(trx).findOpenTransfers(payment.id);
  if (open.length === 0) return 0;
  return refundTransfers(trx, payment, open, SETTLEMENT_REASONS.endedShort, null, ctx);
}
