import type Stripe from 'stripe';
import { z } from 'zod';
import type { Database, Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import { crashPoint } from '#server/lib/crash-point';
import type { Logger } from '#server/lib/logger';
import type { EventHub } from '../events/event-hub';
import type { RefundsService } from '../refunds/refunds.service';
import type { OrderLinks } from '../orders/guest-order.service';
import { confirmPaymentInTransaction } from './payment-confirmation';
import { createPaymentsRepository, type PaymentRow } from './payments.repository';
import { publishPaymentConfirmed, publishStockChange } from './payment-announcements';
import { endPending } from './payments.service';
import type { StripeGateway } from './stripe-gateway';

/**
 * Stripe's signed webhook events for card payments: a completed (or asynchronously paid) Checkout
 * Session confirms its payment and places the order; an expired or failed one ends the payment
 * and returns its stock. Each runs in one transaction holding the payment's row lock.
 */

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

export type WebhookOutcome =
  | 'order_created'
  | 'failed_order_created'
  | 'duplicate'
  | 'expired'
  | 'failed'
  | 'no_change'
  | 'awaiting_payment'
  | 'ignored';

export interface StripeWebhooksService {
  handleStripeWebhook(
    rawBody: Buffer,
    signature: string | undefined,
  ): Promise<{ type: string; outcome: WebhookOutcome }>;
}

export interface CreateStripeWebhooksServiceOptions {
  /** For the order mail's signed status link. */
  links: OrderLinks;
  database: Database;
  logger: Logger;
  events: EventHub;
  stripe: StripeGateway;
  /** Wakes the refund worker after a failed order's refund was queued. */
  refunds?: Pick<RefundsService, 'kick'>;
}

export function createStripeWebhooksService({
  links,
  database,
  logger,
  events,
  stripe,
  refunds,
}: CreateStripeWebhooksServiceOptions): StripeWebhooksService {
  const { db } = database;
  const log = logger.child({ module: 'payments' });

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

  /** `livemode`: the event's (false in Stripe's test mode and from a stand-in: a demo order, no real money). */
  async function confirmCardPayment(
    session: Stripe.Checkout.Session,
    eventId: string,
    livemode: boolean,
  ): Promise<WebhookOutcome> {
    const result = await db.transaction().execute(async (trx) => {
      const payment = await lockCardPayment(trx, session);
      if (!payment) return { outcome: 'ignored' as const };
      if (payment.status === 'confirmed') return { outcome: 'duplicate' as const };

      const repo = createPaymentsRepository(trx);
      const now = new Date();
      const paid = session.amount_total;
      const currency = (session.currency ?? '').toLowerCase();
      // Never expected (the session was made from this payment): refund rather than guess.
      const refusal =
        paid !== payment.amount_cents || currency !== 'usd'
          ? {
              error: `amount: paid ${paid ?? '?'} ${currency || '?'}, expected ${payment.amount_cents} usd`,
              refundReason: `Paid amount ${paid ?? '?'} ${currency || '?'} does not match the order total ${payment.amount_cents} usd`,
            }
          : null;

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
      const { order, change, failed } = await confirmPaymentInTransaction(trx, payment, {
        source: 'stripe',
        refusal,
        // Completed after its reservation ended: the order stands if its items can still be held.
        late: payment.status !== 'pending',
        paidCents: paid ?? null,
        patch: { stripe_session_id: session.id, stripe_payment_intent_id: piId },
        transactionSignature: null,
        detail: { eventId, sessionId: session.id, paymentIntentId: piId, amountTotal: paid },
        now,
        links,
        demo: livemode === false,
      });
      return {
        outcome: failed ? ('failed_order_created' as const) : ('order_created' as const),
        payment,
        result: { order, change, failed },
      };
    });

    if (result.outcome === 'order_created' || result.outcome === 'failed_order_created') {
      crashPoint('payments:after-confirm');
      if (result.outcome === 'failed_order_created') {
        log.warn(
          { orderId: result.result.order.id, sessionId: session.id },
          'card payment confirmed without stock: refund queued',
        );
        refunds?.kick();
      }
      await publishPaymentConfirmed(events, result.payment, result.result);
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
    if (result.outcome === 'expired' || result.outcome === 'failed')
      await publishStockChange(events, result.change);
    return result.outcome;
  }

  return {
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
        crashPoint('stripe-webhook:received');
        switch (event.type) {
          case 'checkout.session.completed': {
            const session = event.data.object;
            outcome =
              session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
                ? await confirmCardPayment(session, event.id, event.livemode)
                : 'awaiting_payment';
            break;
          }
          case 'checkout.session.async_payment_succeeded':
            outcome = await confirmCardPayment(event.data.object, event.id, event.livemode);
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
  };
}
