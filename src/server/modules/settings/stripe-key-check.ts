import type Stripe from 'stripe';
import type { Config } from '#server/config';
import { AppError } from '#server/lib/app-error';

/**
 * Before a Stripe secret key is saved, Stripe is asked whether it knows it: one read-only call
 * (GET /v1/balance, through the SDK, pointed at STRIPE_API_URL when set). Stripe's answer decides:
 *
 * - 200, or 403 (a restricted key without the balance permission: Stripe knew the key): accepted;
 * - 401: refused, with Stripe's own message (it shows only the key's prefix and last 4 characters);
 * - no answer (connection refused, DNS, timeout): Stripe could not be reached, nothing is saved;
 * - any other answer (429, 5xx): Stripe could not check it now, nothing is saved.
 *
 * No retries and a short timeout: the admin is waiting on the Update button.
 */

export const STRIPE_KEY_CHECK_TIMEOUT_MS = 10_000;

export const STRIPE_CHECK_MESSAGES = {
  refused: (stripeMessage: string) => `The Stripe secret key was refused by Stripe: ${stripeMessage}`,
  unreachable:
    'Stripe could not be reached to check the secret key, so nothing was saved. Check the server’s connection and try again.',
  notChecked: (stripeMessage: string) =>
    `Stripe could not check the secret key just now (${stripeMessage}), so nothing was saved. Try again in a moment.`,
} as const;

export type StripeKeyCheck = (secretKey: string) => Promise<void>;

let sdk: Promise<typeof Stripe> | undefined;
const loadStripe = () => (sdk ??= import('stripe').then((m) => m.default));

/** Stripe's message with the key itself, should it ever appear in full, masked. */
function scrub(message: string, key: string): string {
  const text = message.trim() || 'no reason given';
  return key ? text.split(key).join(`${key.slice(0, 8)}****${key.slice(-4)}`) : text;
}

export function createStripeKeyCheck(config: Config): StripeKeyCheck {
  return async (secretKey) => {
    const api = config.stripe.api;
    const StripeSdk = await loadStripe();
    const client = new StripeSdk(secretKey, {
      maxNetworkRetries: 0,
      timeout: STRIPE_KEY_CHECK_TIMEOUT_MS,
      telemetry: false,
      appInfo: { name: 'pre-loved-activewear-shop' },
      ...(api ? { host: api.host, port: api.port, protocol: api.protocol } : {}),
    });
    try {
      await client.balance.retrieve();
    } catch (err) {
      const e = err as { type?: string; statusCode?: number; message?: string };
      if (e.type === 'StripeAuthenticationError' || e.statusCode === 401) {
        const message = STRIPE_CHECK_MESSAGES.refused(scrub(e.message ?? '', secretKey));
        throw new AppError('VALIDATION_FAILED', `value: ${message}`, { value: message });
      }
      if (e.type === 'StripePermissionError' || e.statusCode === 403) return;
      if (e.type === 'StripeConnectionError' || e.statusCode === undefined) {
        throw new AppError('UNAVAILABLE', STRIPE_CHECK_MESSAGES.unreachable);
      }
      throw new AppError('UNAVAILABLE', STRIPE_CHECK_MESSAGES.notChecked(scrub(e.message ?? '', secretKey)));
    }
  };
}
