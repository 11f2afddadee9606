import { shortOrderId } from '#common/format';
import { formatCryptoAmount } from '#common/crypto-amounts';
import { formatUsd } from '#common/money';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import { guestOrderUrl, type OrderLinks } from '../orders/guest-order.service';
import { findOrderOfPayment } from '../orders/orders.service';
import { findRefundsOfPayment } from '../refunds/refunds.service';
import type { CoinInfo } from './crypto-settlement';
import { isCheckoutAccessToken } from './payment-access';
import { createPaymentTransfersRepository } from './payment-transfers.repository';
import { createPaymentsRepository, type PaymentRow } from './payments.repository';

/**
 * A payment's status as the shopper's page polls it (GET /api/payments/:reference/status): the
 * spec's status, what arrived of a part-paid crypto payment and what is left, the refunds on their
 * way, and with the checkout's access token the order's number and links (decision 015).
 */

export const PAYMENT_MESSAGES = {
  notFound: 'Payment not found',
  expired: 'Payment expired',
  failed: 'Payment failed',
  cancelled: 'Payment cancelled',
  soldOutAfterPayment:
    'Your payment was received, but an item sold out before it was confirmed. You will receive a full refund.',
  lateSoldOut:
    'Your payment arrived after this checkout had ended, and an item in it is no longer available, so no order was placed. Your payment is being refunded in full to the card or wallet that paid it.',
  refundOther:
    'Your payment was received, but it could not be matched to your order. You will receive a full refund.',
  endedRefunded:
    'This checkout ended before the full amount arrived, so no order was placed. What you sent is being refunded to the wallet that paid it.',
  extraRefunded:
    'Your order is paid. A further payment to this checkout was not needed and is being refunded to the wallet that sent it.',
} as const;

/** The sentence the payment block shows while part of a crypto payment has arrived. */
function partialMessage(received: string, due: string, remaining: string, symbol: string): string {
  return `Payment received is less than the amount due (received ${received} of ${due} ${symbol}). Send the remaining ${remaining} ${symbol} to the same payment link before the time runs out; if it does not arrive in time, what you sent is refunded automatically.`;
}

/** '/orders/<id>?token=…' of an absolute link to this shop. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export function createPaymentStatusReader(deps: {
  db: Db;
  links: OrderLinks;
  coins: () => Promise<CoinInfo>;
}): (reference: string, token?: string) => Promise<PaymentStatusResponse> {
  const { db, links, coins } = deps;

  function statusOf(
    payment: PaymentRow,
    order: { id: string; status: string; demo: boolean } | null,
    facts: { hasRefunds: boolean; partial: NonNullable<PaymentStatusResponse['received']> | null },
  ): PaymentStatusResponse {
    // Demo: the order this payment placed was paid with test money (the server's record, never
    // the client's word); false while no order exists.
    const base = {
      transaction_signature: null,
      order_id: null,
      payment_method: payment.method,
      demo: order?.demo === true,
    };
    switch (payment.status) {
      case 'pending':
        // Part of a crypto payment arrived: it waits for the rest, and says what is left.
        return facts.partial
          ? {
              ...base,
              status: 'pending',
              message: partialMessage(
                facts.partial.receivedText,
                facts.partial.dueText,
                facts.partial.remainingText,
                facts.partial.symbol,
              ),
            }
          : { ...base, status: 'pending' };
      case 'confirmed':
        if (!order || order.status === 'failed') {
          return {
            ...base,
            status: 'failed',
            order_id: order?.id ?? null,
            message: payment.error?.startsWith('amount:')
              ? PAYMENT_MESSAGES.refundOther
              : payment.error?.startsWith('late-stock:')
                ? PAYMENT_MESSAGES.lateSoldOut
                : PAYMENT_MESSAGES.soldOutAfterPayment,
          };
        }
        // Card payments have no on-chain signature: their Stripe ids stay on the payment.
        return {
          ...base,
          status: 'completed',
          order_id: order.id,
          transaction_signature: payment.transaction_signature,
          ...(facts.hasRefunds && payment.method !== 'card'
            ? { message: PAYMENT_MESSAGES.extraRefunded }
            : {}),
        };
      case 'expired':
      case 'cancelled':
      case 'failed':
        // Money arrived but the checkout ended first: no timeout to retry, a refund on its way.
        if (facts.hasRefunds) return { ...base, status: 'failed', message: PAYMENT_MESSAGES.endedRefunded };
        if (payment.status === 'expired')
          return { ...base, status: 'expired', message: PAYMENT_MESSAGES.expired };
        // Nothing was charged and nothing can be any more: the same answer as an expiry.
        if (payment.status === 'cancelled') {
          return { ...base, status: 'expired', message: PAYMENT_MESSAGES.cancelled };
        }
        return { ...base, status: 'failed', message: PAYMENT_MESSAGES.failed };
    }
  }

  async function getStatus(reference: string, token?: string): Promise<PaymentStatusResponse> {
    const repo = createPaymentsRepository(db);
    const payment = await repo.findByReference(reference);
    if (!payment) throw new AppError('PAYMENT_NOT_FOUND', PAYMENT_MESSAGES.notFound);
    const order = payment.status === 'confirmed' ? await findOrderOfPayment(db, payment.id) : null;
    const isCrypto = payment.method === 'sol' || payment.method === 'aelo';
    const info = await coins();
    const coin = isCrypto ? info[payment.method as 'sol' | 'aelo'] : null;
    const [received, refunds] = await Promise.all([
      coin ? createPaymentTransfersRepository(db).sumReceived(payment.id) : Promise.resolve(0n),
      findRefundsOfPayment(db, payment.id, { explorerUrl: () => null, tokenDecimals: info.aelo.decimals }),
    ]);
    const due = BigInt(payment.crypto_amount ?? '0');
    const partial =
      coin && payment.status === 'pending' && received > 0n && received < due
        ? {
            symbol: coin.symbol,
            receivedText: formatCryptoAmount(received, coin.decimals),
            dueText: formatCryptoAmount(due, coin.decimals),
            remainingText: formatCryptoAmount(due - received, coin.decimals),
          }
        : null;
    const status = statusOf(payment, order, { hasRefunds: refunds.length > 0, partial });
    return {
      ...status,
      ...(partial ? { received: partial } : {}),
      ...(refunds.length > 0
        ? {
            refunds: refunds.map((r) => ({
              amountText:
                r.cryptoAmountText && r.cryptoSymbol
                  ? `${r.cryptoAmountText} ${r.cryptoSymbol}`
                  : formatUsd(r.amountCents),
              status: r.status,
              reason: r.reason,
            })),
          }
        : {}),
      ...(order && isCheckoutAccessToken(links, reference, token)
        ? {
            order_number: shortOrderId(order.id),
            order_url: pathOf(guestOrderUrl(links, order.id)),
            account_order_url: order.userId
              ? `/profile/orders?search=${encodeURIComponent(shortOrderId(order.id))}`
              : null,
          }
        : {}),
    };
  }

  return getStatus;
}
