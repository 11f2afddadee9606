import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { z } from 'zod';
import {
  PricedLineSchema,
  type PaymentStatusResponse,
  type PricedLine,
} from '../../../common/schemas/checkout';
import { userTopic } from '../../../common/schemas/events';
import type { Database, Db } from '../../db/client';
import type { PaymentMethod, PaymentStatus } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Logger } from '../../lib/logger';
import {
  releaseReservations,
  settleStockForOrder,
  type StockChange,
  stockRequestsFor,
} from '../catalog/stock.service';
import { createCustomerAccount } from '../auth/auth.service';
import type { EventHub } from '../events/event-hub';
import { findOrderOfPayment, placeOrder, type PlacedOrder } from '../orders/orders.service';
import {
  createPaymentsRepository,
  type HolderKeys,
  type PaymentRow,
  type PaymentsRepository,
} from './payments.repository';
import type { StripeGateway } from './stripe-gateway';

/** The Checkout Session events the shop acts on; every other event type is acknowledged and ignored. */
const HANDLED_SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.expired',
  'checkout.session.async_payment_failed',
]);

/** The parts of a Checkout Session event the shop reads; anything else in it passes through. */
const CheckoutSessionEventSchema = z.object({
  id: z.string(),
  data: z.object({
    object: z.looseObject({
      id: z.string().min(1),
      object: z.literal('checkout.session'),
      payment_status: z.string().nullish(),
      amount_total: z.number().int().nullish(),
      currency: z.string().nullish(),
      client_reference_id: z.string().nullish(),
      metadata: z.record(z.string(), z.string()).nullish(),
      payment_intent: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
    }),
  }),
});

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

/** 32 random bytes in base58: unguessable, URL-safe, and usable as a Solana Pay reference key. */
export function newPaymentReference(): string {
  return base58(randomBytes(32));
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A payment's priced lines as stored in payments.lines (see checkout/pricing.ts). */
function storedLines(payment: PaymentRow): PricedLine[] {
  return z.array(PricedLineSchema).parse(payment.lines);
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
}

export type { HolderKeys };

/** A card payment still without a Checkout Session this long after it started is released. */
export const SESSIONLESS_GRACE_MS = 2 * 60_000;

export type WebhookOutcome =
  | 'order_created'
  | 'failed_order_created'
  | 'duplicate'
  | 'expired'
  | 'failed'
  | 'no_change'
  | 'awaiting_payment'
  | 'ignored';

export interface PaymentsService {
  /** Inside the checkout's transaction: the pending payment and its first event. */
  recordPending(db: Db, payment: NewPendingPayment): Promise<{ id: string }>;
  attachStripeSession(paymentId: string, sessionId: string): Promise<void>;
  /** The checkout could not start the card payment: the payment fails and its stock goes back. */
  abandon(reference: string, error: string): Promise<void>;
  getStatus(reference: string): Promise<PaymentStatusResponse>;
  /** The shopper left the card page: expire the session, then release the stock (if still pending). */
  cancel(reference: string): Promise<PaymentStatusResponse>;
  handleStripeWebhook(
    rawBody: Buffer,
    signature: string | undefined,
  ): Promise<{ type: string; outcome: WebhookOutcome }>;
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
  database: Database;
  logger: Logger;
  events: EventHub;
  stripe: StripeGateway;
}

export function createPaymentsService({
  database,
  logger,
  events,
  stripe,
}: CreatePaymentsServiceOptions): PaymentsService {
  const { db } = database;
  const log = logger.child({ module: 'payments' });

  const publishStock = async (change: StockChange) => {
    if (change.productIds.length === 0) return;
    await events.publish('catalog', { type: 'stock.changed', data: { productIds: change.productIds } });
  };

  const publishOrder = async (order: PlacedOrder) => {
    const data = { orderId: order.id, status: order.status };
    await events.publish('admin:orders', { type: 'order.created', data });
    if (order.userId)
      await events.publish(userTopic('orders', order.userId), { type: 'order.created', data });
  };

  /**
   * Ends a pending payment without an order (expired, failed or cancelled) inside `trx`, releasing
   * its stock unless the caller already did (a sweeper batch releases all its payments at once).
   */
  async function endPending(
    trx: Db,
    payment: PaymentRow,
    status: Extract<PaymentStatus, 'expired' | 'failed' | 'cancelled'>,
    detail: Record<string, unknown>,
    at: Date,
    options: { stockReleased?: boolean } = {},
  ): Promise<StockChange> {
    const repo = createPaymentsRepository(trx);
    const change = options.stockReleased
      ? { productIds: [] }
      : await releaseReservations(trx, payment.id, at);
    await repo.update(payment.id, {
      status,
      account_password_hash: null,
      ...(typeof detail.error === 'string' ? { error: detail.error } : {}),
    });
    await repo.insertEvent(payment.id, payment.status, status, {
      ...detail,
      ...(options.stockReleased ? {} : { releasedProductIds: change.productIds }),
    });
    return change;
  }

  function statusOf(
    payment: PaymentRow,
    order: { id: string; status: string } | null,
  ): PaymentStatusResponse {
    const base = { transaction_signature: null, order_id: null, payment_method: payment.method };
    switch (payment.status) {
      case 'pending':
        return { ...base, status: 'pending' };
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

  /** The reference a Checkout Session carries (metadata first, client_reference_id as fallback). */
  const referenceOf = (session: Stripe.Checkout.Session): string | null =>
    session.metadata?.reference ?? session.client_reference_id ?? null;

  const paymentIntentId = (session: Stripe.Checkout.Session): string | null =>
    typeof session.payment_intent === 'string'
      ? session.payment_intent
      : (session.payment_intent?.id ?? null);

  /** Our card payment for this session, locked; null when the session is not one of ours. */
  async function lockCardPayment(trx: Db, session: Stripe.Checkout.Session): Promise<PaymentRow | null> {
    const reference = referenceOf(session);
    if (!reference) return null;
    const payment = await createPaymentsRepository(trx).lockByReference(reference);
    if (!payment || payment.method !== 'card') return null;
    if (payment.stripe_session_id !== null && payment.stripe_session_id !== session.id) return null;
    return payment;
  }

  async function confirmCardPayment(
    session: Stripe.Checkout.Session,
    eventId: string,
  ): Promise<WebhookOutcome> {
    const result = await db.transaction().execute(async (trx) => {
      const payment = await lockCardPayment(trx, session);
      if (!payment) return { outcome: 'ignored' as const };
      if (payment.status === 'confirmed') return { outcome: 'duplicate' as const };

      const repo = createPaymentsRepository(trx);
      const now = new Date();
      const lines = storedLines(payment);
      const paid = session.amount_total;
      const currency = (session.currency ?? '').toLowerCase();

      let failure: { error: string; refundReason: string } | null = null;
      let change: StockChange = { productIds: [] };
      if (paid !== payment.amount_cents || currency !== 'usd') {
        // Never expected (the session was made from this payment): refund rather than guess.
        failure = {
          error: `amount: paid ${paid ?? '?'} ${currency || '?'}, expected ${payment.amount_cents} usd`,
          refundReason: `Paid amount ${paid ?? '?'} ${currency || '?'} does not match the order total ${payment.amount_cents} usd`,
        };
        change = await releaseReservations(trx, payment.id, now);
      } else {
        const settled = await settleStockForOrder(trx, payment.id, stockRequestsFor(lines), now);
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
        if (account.outcome === 'created') userId ??= account.userId;
      }

      const piId = paymentIntentId(session);
      if (piId) {
        const other = await repo.findIdByPaymentIntent(piId);
        if (other !== null && other !== payment.id) {
          log.warn(
            { eventId, sessionId: session.id, paymentIntentId: piId },
            'Stripe event reuses a payment intent',
          );
          throw new AppError(
            'VALIDATION_FAILED',
            'Stripe event reuses the payment intent of another payment',
          );
        }
      }
      await repo.update(payment.id, {
        status: 'confirmed',
        confirmed_at: now,
        stripe_session_id: session.id,
        stripe_payment_intent_id: piId,
        account_password_hash: null,
        account_outcome: accountOutcome,
        error: failure?.error ?? null,
      });
      await repo.insertEvent(payment.id, payment.status, 'confirmed', {
        source: 'stripe',
        eventId,
        sessionId: session.id,
        paymentIntentId: piId,
        amountTotal: paid,
        ...(payment.status !== 'pending' ? { lateConfirmation: true } : {}),
        ...(failure ? { failure: failure.error, refundRequired: true } : {}),
        ...(accountOutcome && payment.account_password_hash ? { account: accountOutcome } : {}),
      });

      const order = await placeOrder(trx, {
        paymentId: payment.id,
        userId,
        paymentMethod: 'card',
        amounts: {
          subtotalCents: payment.subtotal_cents,
          shippingCents: payment.shipping_cents,
          discountCents: payment.discount_cents,
          totalCents: payment.amount_cents,
        },
        shippingInfo: payment.shipping_info,
        lines,
        transactionSignature: null,
        ...(failure ? { failure: { refundReason: failure.refundReason } } : {}),
      });
      return {
        outcome: failure ? ('failed_order_created' as const) : ('order_created' as const),
        order,
        change,
      };
    });

    if (result.outcome === 'order_created' || result.outcome === 'failed_order_created') {
      if (result.outcome === 'failed_order_created') {
        log.warn(
          { orderId: result.order.id, sessionId: session.id },
          'card payment confirmed without stock: refund required',
        );
      }
      await publishOrder(result.order);
      await publishStock(result.change);
    }
    return result.outcome;
  }

  async function endCardPayment(
    session: Stripe.Checkout.Session,
    status: 'expired' | 'failed',
    eventId: string,
  ): Promise<WebhookOutcome> {
    const result = await db.transaction().execute(async (trx) => {
      const payment = await lockCardPayment(trx, session);
      if (!payment) return { outcome: 'ignored' as const };
      // Already confirmed (expired after completed), or already ended: nothing to do.
      if (payment.status !== 'pending') return { outcome: 'no_change' as const };
      const change = await endPending(
        trx,
        payment,
        status,
        { source: 'stripe', eventId, sessionId: session.id },
        new Date(),
      );
      return { outcome: status, change };
    });
    if (result.outcome === 'expired' || result.outcome === 'failed') await publishStock(result.change);
    return result.outcome;
  }

  return {
    async recordPending(trx, payment) {
      const repo = createPaymentsRepository(trx);
      const row = await repo.insert({
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
      });
      await repo.insertEvent(row.id, null, 'pending', {
        source: 'checkout',
        amountCents: payment.amounts.totalCents,
        expiresAt: payment.expiresAt.toISOString(),
        ...(payment.accountPasswordHash ? { accountRequested: true } : {}),
      });
      return row;
    },

    async attachStripeSession(paymentId, sessionId) {
      await db.transaction().execute(async (trx) => {
        const repo = createPaymentsRepository(trx);
        await repo.update(paymentId, { stripe_session_id: sessionId });
        await repo.insertEvent(paymentId, 'pending', 'pending', {
          source: 'checkout',
          stripeSessionId: sessionId,
        });
      });
    },

    async abandon(reference, error) {
      const change = await db.transaction().execute(async (trx) => {
        const payment = await createPaymentsRepository(trx).lockByReference(reference);
        if (!payment || payment.status !== 'pending') return { productIds: [] };
        return endPending(trx, payment, 'failed', { source: 'checkout', error }, new Date());
      });
      await publishStock(change);
    },

    getStatus,

    async cancel(reference) {
      const payment = await createPaymentsRepository(db).findByReference(reference);
      if (!payment) throw new AppError('PAYMENT_NOT_FOUND', PAYMENT_MESSAGES.notFound);
      if (payment.status !== 'pending') return getStatus(reference);
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
      await publishStock(change);
      return getStatus(reference);
    },

    async handleStripeWebhook(rawBody, signature) {
      const event = await stripe.verifyWebhook(rawBody, signature);
      let outcome: WebhookOutcome = 'ignored';
      if (HANDLED_SESSION_EVENTS.has(event.type)) {
        // Signed is not the same as well-formed: refuse an event whose session we cannot read.
        const parsed = CheckoutSessionEventSchema.safeParse(event);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          log.warn(
            {
              eventId: event.id,
              type: event.type,
              issue: issue && `${issue.path.join('.')}: ${issue.message}`,
            },
            'malformed Stripe event refused',
          );
          throw new AppError('VALIDATION_FAILED', 'Malformed Stripe event');
        }
        switch (event.type) {
          case 'checkout.session.completed': {
            const session = event.data.object;
            outcome =
              session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
                ? await confirmCardPayment(session, event.id)
                : 'awaiting_payment';
            break;
          }
          case 'checkout.session.async_payment_succeeded':
            outcome = await confirmCardPayment(event.data.object, event.id);
            break;
          case 'checkout.session.expired':
            outcome = await endCardPayment(event.data.object, 'expired', event.id);
            break;
          case 'checkout.session.async_payment_failed':
            outcome = await endCardPayment(event.data.object, 'failed', event.id);
            break;
          default:
            break;
        }
      }
      log.info({ eventId: event.id, type: event.type, outcome }, 'stripe webhook');
      return { type: event.type, outcome };
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
        await publishStock(change);
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
