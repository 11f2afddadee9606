import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { z } from 'zod';
import { PricedLineSchema, type PaymentStatusResponse, type PricedLine } from '#common/schemas/checkout';
import { userTopic } from '#common/schemas/events';
import type { Database, Db } from '#server/db/client';
import type { PaymentMethod } from '#common/schemas/checkout';
import type { PaymentStatus } from '#server/db/schema';
import { AppError } from '#server/lib/app-error';
import { releaseReservations, type StockChange } from '../catalog/stock.service';
import type { EventHub } from '../events/event-hub';
import { signLink, verifyLink } from '#server/lib/signed-links';
import type { OrderLinks } from '../orders/guest-order.service';
import { findOrderOfPayment, type PlacedOrder } from '../orders/orders.service';
import {
  createPaymentsRepository,
  type CryptoQuoteColumns,
  type HolderKeys,
  type PaymentRow,
  type PaymentsRepository,
} from './payments.repository';
import type { StripeGateway } from './stripe-gateway';

/**
 * Payments: started by a checkout (pending, stock reserved), then confirmed by the server (a
 * signed Stripe webhook; on-chain validation in the crypto issue), expired (sweeper, Stripe's
 * expiry event), failed or cancelled. Each change happens in one transaction holding the
 * payment's row lock, and is recorded in payment_events. A confirmation makes exactly one order;
 * one that arrives after the stock went back takes it again or, if it can not, makes a failed
 * order marked for refund.
 */

export const PAYMENT_MESSAGES = {
  notFound: 'Payment not found',
  expired: 'Payment expired',
  failed: 'Payment failed',
  cancelled: 'Payment cancelled',
  soldOutAfterPayment:
    'Your payment was received, but an item sold out before it was confirmed. You will receive a full refund.',
  refundOther:
    'Your payment was received, but it could not be matched to your order. You will receive a full refund.',
} as const;

/** 'underpaid: received 0.0100 of 0.0667 SOL' -> the sentence the payment block shows. */
function underpaidMessage(error: string): string {
  return `Payment received is less than the amount due (${error.slice('underpaid: '.length)}). Please send the rest, or contact us for a refund.`;
}

/** 32 random bytes in base58 (kit's codec): unguessable, URL-safe, and a valid Solana Pay reference key. */
export function newPaymentReference(): string {
  return getBase58Decoder().decode(randomBytes(32));
}

/** A payment's priced lines as stored in payments.lines (see checkout/pricing.ts). */
export function storedLines(payment: PaymentRow): PricedLine[] {
  return z.array(PricedLineSchema).parse(payment.lines);
}

/** Tells the shop that stock moved (the storefront and admin lists refresh). */
export async function publishStockChange(events: EventHub, change: StockChange): Promise<void> {
  if (change.productIds.length === 0) return;
  await events.publish('catalog', { type: 'stock.changed', data: { productIds: change.productIds } });
}

/** Tells the back office, and the buyer's own stream, about a new order. */
export async function publishOrderCreated(events: EventHub, order: PlacedOrder): Promise<void> {
  const data = { orderId: order.id, status: order.status };
  await events.publish('admin:orders', { type: 'order.created', data });
  if (order.userId) await events.publish(userTopic('orders', order.userId), { type: 'order.created', data });
}

/**
 * Ends a pending payment without an order (expired, failed or cancelled) inside `trx`, releasing
 * its stock unless the caller already did (a sweeper batch releases all its payments at once).
 */
export async function endPending(
  trx: Db,
  payment: PaymentRow,
  status: Extract<PaymentStatus, 'expired' | 'failed' | 'cancelled'>,
  detail: Record<string, unknown>,
  at: Date,
  options: { stockReleased?: boolean } = {},
): Promise<StockChange> {
  const repo = createPaymentsRepository(trx);
  const change = options.stockReleased ? { productIds: [] } : await releaseReservations(trx, payment.id, at);
  await repo.updateWithEvent(
    payment.id,
    {
      status,
      account_password_hash: null,
      ...(typeof detail.error === 'string' ? { error: detail.error } : {}),
    },
    {
      fromStatus: payment.status,
      toStatus: status,
      detail: { ...detail, ...(options.stockReleased ? {} : { releasedProductIds: change.productIds }) },
    },
  );
  return change;
}

export interface NewPendingPayment {
  reference: string;
  method: PaymentMethod;
  amounts: { subtotalCents: number; shippingCents: number; discountCents: number; totalCents: number };
  lines: readonly PricedLine[];
  shippingInfo: Record<string, string>;
  userId: string | null;
  accountPasswordHash: string | null;
  expiresAt: Date;
  /** Who started it (limits on what one client may hold). */
  clientIp?: string | null;
  cartId?: string | null;
  /** Crypto payments: the quote (amount due in base units, mint, recipient, price). */
  crypto?: CryptoQuoteColumns | null;
}

export type { HolderKeys };

const ACCESS_PURPOSE = 'checkout-status';
/** As long as the order mail's guest link. */
const ACCESS_TOKEN_DAYS = 180;

/** Whether `token` is the access token of this checkout (see accessTokenFor). */
export function isCheckoutAccessToken(
  links: OrderLinks,
  reference: string,
  token: string | undefined,
): boolean {
  return token !== undefined && verifyLink(links.secret, ACCESS_PURPOSE, reference, token);
}

/** A card payment still without a Checkout Session this long after it started is released. */
export const SESSIONLESS_GRACE_MS = 2 * 60_000;

export interface PaymentsService {
  /** The checkout's access token: with it, the status names the order and links to it. */
  accessTokenFor(reference: string): string;
  /** Inside the checkout's transaction: the pending payment and its first event. */
  recordPending(db: Db, payment: NewPendingPayment): Promise<{ id: string }>;
  attachStripeSession(paymentId: string, sessionId: string): Promise<void>;
  /** The checkout could not start the card payment: the payment fails and its stock goes back. */
  abandon(reference: string, error: string): Promise<void>;
  getStatus(reference: string): Promise<PaymentStatusResponse>;
  /** The shopper left the card page: expire the session, then release the stock (if still pending). */
  cancel(reference: string): Promise<PaymentStatusResponse>;
  /**
   * Ends pending payments whose time is up, and card payments that never got their Checkout
   * Session (older than SESSIONLESS_GRACE_MS: the server stopped in between); returns how many.
   */
  expireDuePayments(now: Date, batchSize?: number): Promise<number>;
  /** Open checkouts and the units they hold, per holder key (in the caller's transaction). */
  countOpenHolds(db: Db, keys: HolderKeys, now: Date): ReturnType<PaymentsRepository['countOpenHolds']>;
  /** Cancels this cart's open checkouts (their Stripe sessions expired first); how many ended. */
  releaseCart(cartId: string, now: Date): Promise<number>;
}

export interface CreatePaymentsServiceOptions {
  /** The server's secret (access tokens) and public origin (order links). */
  links: OrderLinks;
  database: Database;
  events: EventHub;
  stripe: StripeGateway;
  /** Looks on the chain for a crypto payment's transfer (crypto-payments.service.ts). */
  chainCheck?: { check(reference: string, known?: PaymentRow): Promise<boolean> };
}

export function createPaymentsService({
  links,
  database,
  events,
  stripe,
  chainCheck,
}: CreatePaymentsServiceOptions): PaymentsService {
  const { db } = database;

  function statusOf(
    payment: PaymentRow,
    order: { id: string; status: string } | null,
  ): PaymentStatusResponse {
    const base = { transaction_signature: null, order_id: null, payment_method: payment.method };
    switch (payment.status) {
      case 'pending':
        // A crypto transfer below the amount due leaves the payment awaiting the rest, and says so.
        return payment.error?.startsWith('underpaid:')
          ? { ...base, status: 'pending', message: underpaidMessage(payment.error) }
          : { ...base, status: 'pending' };
      case 'confirmed':
        if (!order || order.status === 'failed') {
          return {
            ...base,
            status: 'failed',
            order_id: order?.id ?? null,
            message: payment.error?.startsWith('amount:')
              ? PAYMENT_MESSAGES.refundOther
              : PAYMENT_MESSAGES.soldOutAfterPayment,
          };
        }
        // Card payments have no on-chain signature: their Stripe ids stay on the payment.
        return {
          ...base,
          status: 'completed',
          order_id: order.id,
          transaction_signature: payment.transaction_signature,
        };
      case 'expired':
        return { ...base, status: 'expired', message: PAYMENT_MESSAGES.expired };
      case 'cancelled':
        // Nothing was charged and nothing can be any more: the same answer as an expiry.
        return { ...base, status: 'expired', message: PAYMENT_MESSAGES.cancelled };
      case 'failed':
        return { ...base, status: 'failed', message: PAYMENT_MESSAGES.failed };
    }
  }

  async function getStatus(reference: string): Promise<PaymentStatusResponse> {
    const payment = await createPaymentsRepository(db).findByReference(reference);
    if (!payment) throw new AppError('PAYMENT_NOT_FOUND', PAYMENT_MESSAGES.notFound);
    const order = payment.status === 'confirmed' ? await findOrderOfPayment(db, payment.id) : null;
    return statusOf(payment, order);
  }

  return {
    accessTokenFor(reference) {
      return signLink(
        links.secret,
        ACCESS_PURPOSE,
        reference,
        new Date(Date.now() + ACCESS_TOKEN_DAYS * 86_400_000),
      );
    },

    async recordPending(trx, payment) {
      const repo = createPaymentsRepository(trx);
      const row = await repo.insertWithEvent(
        {
          reference: payment.reference,
          method: payment.method,
          subtotalCents: payment.amounts.subtotalCents,
          shippingCents: payment.amounts.shippingCents,
          discountCents: payment.amounts.discountCents,
          amountCents: payment.amounts.totalCents,
          lines: [...payment.lines],
          shippingInfo: payment.shippingInfo,
          userId: payment.userId,
          accountPasswordHash: payment.accountPasswordHash,
          clientIp: payment.clientIp ?? null,
          cartId: payment.cartId ?? null,
          expiresAt: payment.expiresAt,
          crypto: payment.crypto
            ? {
                amount: payment.crypto.amount,
                mint: payment.crypto.mint,
                recipient: payment.crypto.recipient,
                priceUsd: payment.crypto.priceUsd,
              }
            : null,
        },
        {
          source: 'checkout',
          amountCents: payment.amounts.totalCents,
          expiresAt: payment.expiresAt.toISOString(),
          ...(payment.crypto
            ? { cryptoAmount: payment.crypto.amount.toString(), priceUsd: payment.crypto.priceUsd }
            : {}),
          ...(payment.accountPasswordHash ? { accountRequested: true } : {}),
        },
      );
      return row;
    },

    async attachStripeSession(paymentId, sessionId) {
      // One statement (the update and its event): atomic without a transaction's begin and commit.
      await createPaymentsRepository(db).updateWithEvent(
        paymentId,
        { stripe_session_id: sessionId },
        {
          fromStatus: 'pending',
          toStatus: 'pending',
          detail: { source: 'checkout', stripeSessionId: sessionId },
        },
      );
    },

    async abandon(reference, error) {
      const change = await db.transaction().execute(async (trx) => {
        const payment = await createPaymentsRepository(trx).lockByReference(reference);
        if (!payment || payment.status !== 'pending') return { productIds: [] };
        return endPending(trx, payment, 'failed', { source: 'checkout', error }, new Date());
      });
      await publishStockChange(events, change);
    },

    getStatus,

    async cancel(reference) {
      const payment = await createPaymentsRepository(db).findByReference(reference);
      if (!payment) throw new AppError('PAYMENT_NOT_FOUND', PAYMENT_MESSAGES.notFound);
      if (payment.status !== 'pending') return getStatus(reference);
      // Paid on the chain a moment ago? Then it is confirmed, not cancelled.
      if (
        payment.method !== 'card' &&
        chainCheck &&
        (await chainCheck.check(reference, payment).catch(() => false))
      ) {
        return getStatus(reference);
      }
      if (payment.method === 'card' && payment.stripe_session_id) {
        // Only a session Stripe says is expired can no longer be paid: release nothing before that.
        const state = await stripe.expireSession(payment.stripe_session_id);
        if (state !== 'expired') return getStatus(reference);
      }
      const change = await db.transaction().execute(async (trx) => {
        const locked = await createPaymentsRepository(trx).lockByReference(reference);
        if (!locked || locked.status !== 'pending') return { productIds: [] };
        return endPending(trx, locked, 'cancelled', { source: 'shopper' }, new Date());
      });
      await publishStockChange(events, change);
      return getStatus(reference);
    },

    countOpenHolds(trx, keys, now) {
      return createPaymentsRepository(trx).countOpenHolds(keys, now);
    },

    async releaseCart(cartId, now) {
      const references = await createPaymentsRepository(db).findOpenReferencesByCart(cartId, now);
      let ended = 0;
      for (const reference of references) {
        const status = await this.cancel(reference);
        if (status.status !== 'pending') ended++;
      }
      return ended;
    },

    async expireDuePayments(now, batchSize = 100) {
      let total = 0;
      for (;;) {
        const { ended, change } = await db.transaction().execute(async (trx) => {
          const repo = createPaymentsRepository(trx);
          const expired = await repo.claimExpiredPending(now, batchSize);
          const sessionless =
            expired.length < batchSize
              ? await repo.claimSessionlessPending(
                  new Date(now.getTime() - SESSIONLESS_GRACE_MS),
                  batchSize - expired.length,
                )
              : [];
          const due = [...expired, ...sessionless.filter((p) => !expired.some((e) => e.id === p.id))];
          // The whole batch's stock in one pass, products in id order (no deadlock with checkouts).
          const released = await releaseReservations(
            trx,
            due.map((p) => p.id),
            now,
          );
          for (const payment of due) {
            await endPending(trx, payment, 'expired', { source: 'sweeper' }, now, { stockReleased: true });
          }
          return { ended: due, change: released };
        });
        total += ended.length;
        await publishStockChange(events, change);
        // Best effort: a card session whose reservation ended must not be paid any more. Stripe
        // has normally expired it already (the reservation outlives the session by a grace period).
        const sessions = ended.map((p) => p.stripe_session_id).filter((id): id is string => id !== null);
        await Promise.all(sessions.map((id) => stripe.expireSession(id)));
        if (ended.length < batchSize) break;
      }
      return total;
    },
  };
}
