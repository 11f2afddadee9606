import type { PaymentStatusResponse, PricedLine } from '#common/schemas/checkout';
import type { Database, Db, Tx } from '#server/db/client';
import type { PaymentMethod } from '#common/schemas/checkout';
import type { PaymentStatus } from '#server/db/schema';
import { AppError } from '#server/lib/app-error';
import { releaseReservations, type StockChange } from '../catalog/stock.service';
import type { EventHub } from '../events/event-hub';
import type { RefundsService } from '../refunds/refunds.service';
import type { OrderLinks } from '../orders/guest-order.service';
import { createPaymentsRepository, type CryptoQuoteColumns, type PaymentRow } from './payments.repository';
import {
  createPaymentHoldsRepository,
  type HolderKeys,
  type PaymentHoldsRepository,
  type ProductHolds,
} from './payment-holds.repository';
import { refundEndedPayment, type CoinInfo, type SettlementContext } from './crypto-settlement';
import { checkoutAccessToken } from './payment-access';
import { publishStockChange } from './payment-announcements';
import { createPaymentStatusReader, PAYMENT_MESSAGES } from './payment-status';
import type { StripeGateway } from './stripe-gateway';

/**
 * Payments: started by a checkout (pending, stock reserved), then confirmed by the server (a
 * signed Stripe webhook; on-chain validation in the crypto issue), expired (sweeper, Stripe's
 * expiry event), failed or cancelled. Each change happens in one transaction holding the
 * payment's row lock, and is recorded in payment_events. A confirmation makes exactly one order;
 * one that arrives after the stock went back takes it again or, if it can not, makes a failed
 * order marked for refund.
 */

export { PAYMENT_MESSAGES } from './payment-status';

export type { CoinInfo };

export { storedLines } from './payment-confirmation';

/**
 * Ends a pending payment without an order (expired, failed or cancelled) inside `trx`, releasing
 * its stock unless the caller already did (a sweeper batch releases all its payments at once).
 */
export async function endPending(
  trx: Tx,
  payment: PaymentRow,
  status: Extract<PaymentStatus, 'expired' | 'failed' | 'cancelled'>,
  detail: Record<string, unknown>,
  at: Date,
  options: { stockReleased?: boolean; settlement?: SettlementContext } = {},
): Promise<StockChange> {
  const repo = createPaymentsRepository(trx);
  const change = options.stockReleased ? { productIds: [] } : await releaseReservations(trx, payment.id, at);
  // Part of a crypto payment that arrived before it ended goes back to the wallet that sent it.
  if (payment.method !== 'card' && options.settlement)
    await refundEndedPayment(trx, payment, options.settlement);
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
  /** Who started it: the address (recorded) and the keys of the limits on what one client may hold. */
  clientIp?: string | null;
  clientKey?: string | null;
  clientNetwork?: string | null;
  cartId?: string | null;
  /** Crypto payments: the quote (amount due in base units, mint, recipient, price). */
  crypto?: CryptoQuoteColumns | null;
}

export type { HolderKeys, ProductHolds };

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
  /** `token`: the checkout's access token, which adds the order's number and links. */
  getStatus(reference: string, token?: string): Promise<PaymentStatusResponse>;
  /** The shopper left the card page: expire the session, then release the stock (if still pending). */
  cancel(reference: string): Promise<PaymentStatusResponse>;
  /**
   * Ends pending payments whose time is up, and card payments that never got their Checkout
   * Session (older than SESSIONLESS_GRACE_MS: the server stopped in between); returns how many.
   */
  expireDuePayments(now: Date, batchSize?: number): Promise<number>;
  /** Open checkouts and the units they hold, per holder key (in the caller's transaction). */
  countOpenHolds(db: Db, keys: HolderKeys, now: Date): ReturnType<PaymentHoldsRepository['countOpenHolds']>;
  /**
   * In the caller's transaction: locks the products (id order) and answers their buyable units and
   * what unpaid checkouts hold of each, in all and anonymous (the anonymous share, decision 016).
   */
  lockProductHolds(db: Db, productIds: readonly string[]): Promise<ProductHolds[]>;
  /** Whether a checkout from this cart was paid (the cart is closed). */
  isCartPaid(cartId: string): Promise<boolean>;
  /** Cancels this cart's open checkouts (their Stripe sessions expired first); how many ended. */
  releaseCart(cartId: string, now: Date): Promise<number>;
}

export interface CreatePaymentsServiceOptions {
  /** Wakes the refund worker after a payment that ended with money in it was refunded. */
  refunds?: Pick<RefundsService, 'kick'>;
  /** The server's secret (access tokens) and public origin (order links). */
  links: OrderLinks;
  database: Database;
  events: EventHub;
  stripe: StripeGateway;
  /** Looks on the chain for a crypto payment's transfer (crypto-payments.service.ts). */
  chainCheck?: {
    check(reference: string, known?: PaymentRow): Promise<boolean>;
    /** Decimals and symbol of each crypto method (the texts of amounts). */
    coins(): Promise<CoinInfo>;
  };
}

export function createPaymentsService({
  refunds,
  links,
  database,
  events,
  stripe,
  chainCheck,
}: CreatePaymentsServiceOptions): PaymentsService {
  const { db } = database;

  const SOL_ONLY: CoinInfo = { sol: { decimals: 9, symbol: 'SOL' }, aelo: { decimals: 6, symbol: 'AELO' } };
  const coins = (): Promise<CoinInfo> => chainCheck?.coins() ?? Promise.resolve(SOL_ONLY);

  /** What ends crypto payments needs to refund what arrived: the coins' texts, the links. */
  async function settlementContext(now: Date): Promise<SettlementContext> {
    return { links, now, coins: await coins() };
  }

  const getStatus = createPaymentStatusReader({ db, links, coins });

  return {
    accessTokenFor(reference) {
      return checkoutAccessToken(links, reference);
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
          clientKey: payment.clientKey ?? null,
          clientNetwork: payment.clientNetwork ?? null,
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
      const settlement = await settlementContext(new Date());
      const change = await db.transaction().execute(async (trx) => {
        const locked = await createPaymentsRepository(trx).lockByReference(reference);
        if (!locked || locked.status !== 'pending') return { productIds: [] };
        return endPending(trx, locked, 'cancelled', { source: 'shopper' }, new Date(), { settlement });
      });
      await publishStockChange(events, change);
      if (payment.method !== 'card') refunds?.kick();
      return getStatus(reference);
    },

    countOpenHolds(trx, keys, now) {
      return createPaymentHoldsRepository(trx).countOpenHolds(keys, now);
    },

    lockProductHolds(trx, productIds) {
      return createPaymentHoldsRepository(trx).lockProductHolds(productIds);
    },

    isCartPaid(cartId) {
      return createPaymentsRepository(db).isCartPaid(cartId);
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
      const settlement = await settlementContext(now);
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
            await endPending(trx, payment, 'expired', { source: 'sweeper' }, now, {
              stockReleased: true,
              settlement,
            });
          }
          return { ended: due, change: released };
        });
        total += ended.length;
        await publishStockChange(events, change);
        // A part payment that ended was refunded in that transaction: carry it out now.
        if (ended.some((p) => p.method !== 'card')) refunds?.kick();
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
