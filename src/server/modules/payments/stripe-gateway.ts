import type Stripe from 'stripe';
import { CHECKOUT_SERVER_MESSAGES } from '#common/schemas/checkout';
import type { Config } from '#server/config';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import type { SettingsService } from '../settings/settings.service';

/**
 * The shop's use of Stripe, through the official SDK: Checkout Sessions (create, retrieve,
 * expire) and webhook signature checks. Keys come from the settings service (admin settings,
 * else environment) on every call, so a key changed in the back office applies at once.
 * STRIPE_API_URL points the SDK at a local stand-in (tests, offline development).
 */

const CARD_NOT_CONFIGURED = CHECKOUT_SERVER_MESSAGES.cardNotConfigured;

let sdk: Promise<typeof Stripe> | undefined;
/**
 * The SDK (about a fifth of a CPU second to import) loads with the first call that needs it, so a
 * shop without card payments, the default, never loads it.
 */
const loadStripe = () => (sdk ??= import('stripe').then((m) => m.default));

export interface CheckoutSessionLine {
  name: string;
  /** Absolute image URL, when there is one Stripe can show. */
  imageUrl: string | null;
  unitAmountCents: number;
  quantity: number;
}

export interface CreateCheckoutSessionInput {
  reference: string;
  lines: readonly CheckoutSessionLine[];
  shippingCents: number;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export interface CreatedCheckoutSession {
  id: string;
  url: string;
  amountTotal: number | null;
}

export type SessionState = 'expired' | 'complete' | 'open' | 'unknown';

export interface StripeGateway {
  /** Card payments need both the secret key and the webhook secret (no webhook, no orders). */
  isCardEnabled(): Promise<boolean>;
  createCheckoutSession(input: CreateCheckoutSessionInput): Promise<CreatedCheckoutSession>;
  /**
   * Expires an open session so it can no longer be paid; answers the session's state afterwards
   * ('expired' also when it had already expired). Never throws: 'unknown' when Stripe could not
   * be asked.
   */
  expireSession(sessionId: string): Promise<SessionState>;
  /** The verified event; 400 for a missing or bad signature, 503 (signed) without a webhook secret. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Promise<Stripe.Event>;
  /**
   * Refunds part or all of a card payment (Stripe's refunds API). The same idempotency key always
   * answers the same refund, so a retry after a crash never refunds twice. Throws StripeRefundRefused
   * when Stripe refuses it for good (a 4xx: more than is left, unknown payment); other errors are
   * worth another try.
   */
  createRefund(input: CreateRefundInput): Promise<StripeRefundState>;
  /** A refund's state now (a pending refund is asked again later). */
  retrieveRefund(refundId: string): Promise<StripeRefundState>;
}

export interface CreateRefundInput {
  paymentIntentId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface StripeRefundState {
  id: string;
  /** Stripe's refund status: succeeded, pending, requires_action, failed or canceled. */
  status: string;
  failureReason: string | null;
}

/** Stripe refused a refund for good (invalid request: nothing will change on a retry). */
export class StripeRefundRefused extends Error {}

function stateOf(status: string | null): SessionState {
  return status === 'expired' || status === 'complete' || status === 'open' ? status : 'unknown';
}

function refundState(refund: Stripe.Refund): StripeRefundState {
  return { id: refund.id, status: refund.status ?? 'pending', failureReason: refund.failure_reason ?? null };
}

/** A 4xx other than 429 (and not an idempotency clash) is Stripe's final word; anything else may pass. */
function refusalOf(err: unknown): unknown {
  const e = err as { statusCode?: number; type?: string; message?: string };
  const status = e.statusCode ?? 0;
  if (status >= 400 && status < 500 && status !== 429 && e.type !== 'StripeIdempotencyError') {
    return new StripeRefundRefused(e.message ?? 'Stripe refused the refund');
  }
  return err;
}

/** Stripe Checkout refuses expires_at less than 30 minutes ahead (its clock): one minute of margin. */
export const STRIPE_MIN_SESSION_MINUTES = 31;

export function createStripeGateway({
  config,
  settings,
  logger,
}: {
  config: Config;
  settings: SettingsService;
  logger: Logger;
}): StripeGateway {
  const log = logger.child({ module: 'stripe' });
  let cached: { key: string; client: Stripe } | undefined;

  const clientFor = async (key: string): Promise<Stripe> => {
    if (cached?.key === key) return cached.client;
    const api = config.stripe.api;
    const StripeSdk = await loadStripe();
    const client = new StripeSdk(key, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'pre-loved-activewear-shop' },
      ...(api ? { host: api.host, port: api.port, protocol: api.protocol } : {}),
    });
    cached = { key, client };
    return client;
  };

  const client = async (): Promise<Stripe> => {
    const key = await settings.getSecret('stripe', 'secret_key');
    if (!key) throw new AppError('NOT_CONFIGURED', CARD_NOT_CONFIGURED);
    return clientFor(key);
  };

  return {
    async isCardEnabled() {
      const [key, webhookSecret] = await Promise.all([
        settings.getSecret('stripe', 'secret_key'),
        settings.getSecret('stripe', 'webhook_secret'),
      ]);
      return Boolean(key && webhookSecret);
    },

    async createCheckoutSession(input) {
      const stripe = await client();
      const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = input.lines.map((line) => ({
        quantity: line.quantity,
        price_data: {
          currency: 'usd',
          unit_amount: line.unitAmountCents,
          product_data: { name: line.name, ...(line.imageUrl ? { images: [line.imageUrl] } : {}) },
        },
      }));
      if (input.shippingCents > 0) {
        lineItems.push({
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: input.shippingCents,
            product_data: { name: 'Shipping (USPS, 3-5 business days)' },
          },
        });
      }
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          allowed_payment_method_types: ['card'],
          line_items: lineItems,
          client_reference_id: input.reference,
          metadata: { reference: input.reference },
          payment_intent_data: { metadata: { reference: input.reference } },
          customer_email: input.customerEmail,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        },
        // Retrying the same checkout never makes a second session.
        { idempotencyKey: `checkout-${input.reference}` },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a url');
      return { id: session.id, url: session.url, amountTotal: session.amount_total };
    },

    async expireSession(sessionId) {
      let stripe: Stripe;
      try {
        stripe = await client();
      } catch {
        return 'unknown';
      }
      try {
        return stateOf((await stripe.checkout.sessions.expire(sessionId)).status);
      } catch (err) {
        // Not open any more (already expired, or paid): ask what it is now.
        try {
          return stateOf((await stripe.checkout.sessions.retrieve(sessionId)).status);
        } catch {
          log.warn({ err, sessionId }, 'could not expire the Stripe Checkout Session');
          return 'unknown';
        }
      }
    },

    async createRefund(input) {
      const stripe = await client();
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            amount: input.amountCents,
            reason: 'requested_by_customer',
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return refundState(refund);
      } catch (err) {
        throw refusalOf(err);
      }
    },

    async retrieveRefund(refundId) {
      const stripe = await client();
      try {
        return refundState(await stripe.refunds.retrieve(refundId));
      } catch (err) {
        throw refusalOf(err);
      }
    },

    async verifyWebhook(rawBody, signature) {
      // An unsigned request is refused whatever the configuration; a signed one without a
      // secret to check it gets 503, so that Stripe retries it once the secret is set.
      if (!signature) throw new AppError('VALIDATION_FAILED', 'Missing Stripe signature');
      const secret = await settings.getSecret('stripe', 'webhook_secret');
      if (!secret) throw new AppError('NOT_CONFIGURED', CARD_NOT_CONFIGURED);
      const StripeSdk = await loadStripe();
      try {
        return StripeSdk.webhooks.constructEvent(rawBody, signature, secret);
      } catch (err) {
        if (err instanceof StripeSdk.errors.StripeSignatureVerificationError) {
          throw new AppError('VALIDATION_FAILED', 'Invalid Stripe signature');
        }
        // A signed body that is not an event (malformed JSON) is refused as well.
        throw new AppError('VALIDATION_FAILED', 'Invalid Stripe event');
      }
    },
  };
}
