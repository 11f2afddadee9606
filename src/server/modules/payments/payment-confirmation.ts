import type { Updateable } from 'kysely';
import type { Db } from '#server/db/client';
import type { PaymentsTable } from '#server/db/schema';
import { crashPoint } from '#server/lib/crash-point';
import { checkoutAccountVerificationMail } from '../auth/auth-email';
import { createCustomerAccount } from '../auth/auth.service';
import {
  releaseReservations,
  settleStockForOrder,
  stockRequestsFor,
  type StockChange,
} from '../catalog/stock.service';
import { orderConfirmationMail, orderRefundMail } from '../mail/mail-templates';
import { queueMail } from '../mail/mail.service';
import { orderMailFacts, type OrderLinks } from '../orders/guest-order.service';
import { placeOrder, type PlacedOrder } from '../orders/orders.service';
import { createPaymentsRepository, type PaymentRow } from './payments.repository';
import { storedLines } from './payments.service';

/**
 * The one way a payment becomes an order, for cards (a signed Stripe event) and crypto (a transfer
 * validated on the chain) alike, inside the caller's transaction holding the payment's row lock:
 * the stock is settled (taken again if its reservation ended) unless the payment is known to be
 * unacceptable; the account asked for at checkout is made; the payment is marked confirmed with
 * its event; exactly one order is placed, failed and marked for refund when the stock or the
 * payment was not right.
 */

export interface Refusal {
  /** Kept on the payment (payments.error); 'amount:' prefixed errors read as a mismatch to shoppers. */
  error: string;
  /** Shown to the admin on the failed order. */
  refundReason: string;
}

export interface ConfirmPaymentInput {
  source: 'stripe' | 'chain';
  /** A reason to refund known before the stock is looked at (wrong amount, paid after expiry). */
  refusal: Refusal | null;
  /** Columns the payment method keeps (Stripe ids, the transaction signature). */
  patch: Updateable<PaymentsTable>;
  transactionSignature: string | null;
  /** More for the payment_events row. */
  detail: Record<string, unknown>;
  now: Date;
  /** For the order mail's signed status link. */
  links: OrderLinks;
}

export async function confirmPaymentInTransaction(
  trx: Db,
  payment: PaymentRow,
  input: ConfirmPaymentInput,
): Promise<{ order: PlacedOrder; change: StockChange; failed: boolean }> {
  const repo = createPaymentsRepository(trx);
  const lines = storedLines(payment);
  let failure = input.refusal;
  let change: StockChange;
  if (failure) {
    change = await releaseReservations(trx, payment.id, input.now);
  } else {
    const settled = await settleStockForOrder(trx, payment.id, stockRequestsFor(lines), input.now);
    change = settled.change;
    if (!settled.ok) {
      const titles = settled.short.map((s) => s.title).join(', ');
      failure = {
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
  });
  // The order's mail, in the same transaction: sent once the order exists, never twice (its key).
  const facts = await orderMailFacts(trx, input.links, order.id);
  if (facts) await queueMail(trx, failure ? orderRefundMail(facts) : orderConfirmationMail(facts));
  crashPoint('payments:order-placed');
  return { order, change, failed: failure !== null };
}
