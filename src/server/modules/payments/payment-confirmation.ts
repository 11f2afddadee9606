import type { Updateable } from 'kysely';
import type { Tx } from '#server/db/client';
import type { PaymentsTable } from '#server/db/schema';
import { crashPoint } from '#server/lib/crash-point';
import { checkoutAccountVerificationMail } from '../auth/auth-email';
import { createCustomerAccount } from '../auth/auth.service';
import { releaseReservations, settleStockForOrder, type StockChange } from '../catalog/stock.service';
import { orderConfirmationMail, orderRefundMail } from '../mail/mail-templates';
import { queueMail } from '../mail/mail.service';
import { orderMailFacts, type OrderLinks } from '../orders/guest-order.service';
import { placeOrder, type PlacedOrder } from '../orders/orders.service';
import { queueRefund } from '../refunds/refunds.service';
import { z } from 'zod';
import { PricedLineSchema, type PricedLine } from '#common/schemas/checkout';
import { createPaymentTransfersRepository } from './payment-transfers.repository';
import { createPaymentsRepository, type PaymentRow } from './payments.repository';

/**
 * The one way a payment becomes an order, for cards (a signed Stripe event) and crypto (a transfer
 * validated on the chain) alike, inside the caller's transaction holding the payment's row lock:
 * the stock is settled (taken again if its reservation ended) unless the payment is known to be
 * unacceptable; the account asked for at checkout is made; the payment is marked confirmed with
 * its event; exactly one order is placed, failed and marked for refund when the stock or the
 * payment was not right.
 */

/** A payment's priced lines as stored in payments.lines (see checkout/pricing.ts). */
export function storedLines(payment: PaymentRow): PricedLine[] {
  return z.array(PricedLineSchema).parse(payment.lines);
}

export interface Refusal {
  /** Kept on the payment (payments.error); 'amount:' prefixed errors read as a mismatch to shoppers. */
  error: string;
  /** Shown to the admin on the failed order. */
  refundReason: string;
}

export interface ConfirmPaymentInput {
  source: 'stripe' | 'chain';
  /** A reason to refund known before the stock is looked at (a card paid a wrong amount). */
  refusal: Refusal | null;
  /**
   * Paid after the payment's time ended (or after the shopper cancelled it): accepted at its quote
   * when its items can still be held, else refunded in full, saying so.
   */
  late?: boolean;
  /** Card: what Stripe says was paid, refunded in full when the order fails (else the order's total). */
  paidCents?: number | null;
  /** Columns the payment method keeps (Stripe ids, the transaction signature). */
  patch: Updateable<PaymentsTable>;
  transactionSignature: string | null;
  /** More for the payment_events row. */
  detail: Record<string, unknown>;
  now: Date;
  /** For the order mail's signed status link. */
  links: OrderLinks;
  /** Paid with test money (the local demo ledger, Stripe's test mode): the order is marked demo. */
  demo: boolean;
}

export interface ConfirmedPayment {
  order: PlacedOrder;
  change: StockChange;
  failed: boolean;
}

export async function confirmPaymentInTransaction(
  trx: Tx,
  payment: PaymentRow,
  input: ConfirmPaymentInput,
): Promise<ConfirmedPayment> {
  const repo = createPaymentsRepository(trx);
  const lines = storedLines(payment);
  let failure = input.refusal;
  let change: StockChange;
  if (failure) {
    change = await releaseReservations(trx, payment.id, input.now);
  } else {
    const settled = await settleStockForOrder(trx, payment.id, lines, input.now);
    change = settled.change;
    if (!settled.ok) {
      const titles = [...new Set(settled.short.map((s) => s.title))].join(', ');
      failure = input.late
        ? {
            error: `late-stock: paid after the checkout ended; no longer in stock (${titles})`,
            refundReason: `Paid after the checkout ended; no longer in stock: ${titles}`,
          }
        : {
            error: `stock: sold out before the payment was confirmed (${titles})`,
            refundReason: `Paid after the reservation ended; no longer in stock: ${titles}`,
          };
    }
  }

  // The account the shopper asked for comes with the order (even a failed one: it shows the refund).
  let userId = payment.user_id;
  let accountOutcome = payment.account_outcome;
  if (payment.account_password_hash) {
    const account = await createCustomerAccount(
      trx,
      payment.shipping_info.email ?? '',
      payment.account_password_hash,
    );
    accountOutcome = account.outcome;
    if (account.outcome === 'created') {
      userId ??= account.userId;
      // An account made at checkout confirms its email as one made on /login does.
      await queueMail(
        trx,
        await checkoutAccountVerificationMail(
          input.links,
          (payment.shipping_info.email ?? '').trim().toLowerCase(),
          // The link names this account (as sign-up's do): it confirms no other made later.
          { id: account.userId },
        ),
      );
    }
  }

  await repo.update(payment.id, {
    ...input.patch,
    status: 'confirmed',
    confirmed_at: input.now,
    transaction_signature: input.transactionSignature,
    account_password_hash: null,
    account_outcome: accountOutcome,
    error: failure?.error ?? null,
  });
  await repo.insertEvent(payment.id, payment.status, 'confirmed', {
    source: input.source,
    ...input.detail,
    ...(payment.status !== 'pending' ? { lateConfirmation: true } : {}),
    ...(failure ? { failure: failure.error, refundRequired: true } : {}),
    ...(accountOutcome && payment.account_password_hash ? { account: accountOutcome } : {}),
  });

  const order = await placeOrder(trx, {
    paymentId: payment.id,
    userId,
    paymentMethod: payment.method,
    amounts: {
      subtotalCents: payment.subtotal_cents,
      shippingCents: payment.shipping_cents,
      discountCents: payment.discount_cents,
      totalCents: payment.amount_cents,
    },
    shippingInfo: payment.shipping_info,
    lines,
    transactionSignature: input.transactionSignature,
    ...(failure ? { failure: { refundReason: failure.refundReason } } : {}),
    demo: input.demo,
  });
  // A failed order's money goes back at once, through the refund path the admin uses.
  if (failure) await refundFailedOrder(trx, payment, order.id, failure.refundReason, input.paidCents ?? null);
  // The order's mail, in the same transaction: sent once the order exists, never twice (its key).
  const facts = await orderMailFacts(trx, input.links, order.id);
  if (facts) {
    await queueMail(
      trx,
      failure ? orderRefundMail(facts, refundMailReason(failure.error)) : orderConfirmationMail(facts),
    );
  }
  crashPoint('payments:order-placed');
  return { order, change, failed: failure !== null };
}

/** Why a failed order is refunded, in the shopper's words (its mail). */
function refundMailReason(error: string): string {
  if (error.startsWith('late-stock:')) {
    return 'Your payment arrived after the checkout had ended, and by then an item in it was no longer available, so the order cannot be shipped.';
  }
  if (error.startsWith('amount:')) {
    return 'The amount paid did not match the order total, so the order cannot be shipped.';
  }
  return 'An item in your order sold out before your payment was confirmed, so the order cannot be shipped.';
}

/**
 * Queues the refund of everything a failed order was paid: the card payment (Stripe refunds it),
 * or each transfer that paid it, back to its payer (cents split at the quote, the last taking the
 * rest so they add up to the total).
 */
async function refundFailedOrder(
  trx: Tx,
  payment: PaymentRow,
  orderId: string,
  reason: string,
  paidCents: number | null,
): Promise<void> {
  if (payment.method === 'card') {
    const cents = paidCents ?? payment.amount_cents;
    if (cents <= 0) return;
    await queueRefund(trx, {
      paymentId: payment.id,
      orderId,
      transferId: null,
      method: 'card',
      kind: 'automatic',
      scope: 'order',
      amountCents: cents,
      cryptoAmount: null,
      cryptoMint: null,
      destination: null,
      reason,
      createdBy: null,
    });
    return;
  }
  const applied = await createPaymentTransfersRepository(trx).findAppliedTransfers(payment.id);
  const due = BigInt(payment.crypto_amount ?? '0');
  let centsLeft = payment.amount_cents;
  for (const [index, transfer] of applied.entries()) {
    const isLast = index === applied.length - 1;
    const cents = isLast
      ? centsLeft
      : due > 0n
        ? Number((transfer.appliedAmount * BigInt(payment.amount_cents)) / due)
        : 0;
    centsLeft -= cents;
    await queueRefund(trx, {
      paymentId: payment.id,
      orderId,
      transferId: transfer.id,
      method: payment.method,
      kind: 'automatic',
      scope: 'order',
      amountCents: Math.max(0, cents),
      // The whole transfer: what paid the order and anything beyond the amount due.
      cryptoAmount: transfer.amount,
      cryptoMint: payment.crypto_mint,
      destination: transfer.payer,
      reason,
      createdBy: null,
    });
  }
}
