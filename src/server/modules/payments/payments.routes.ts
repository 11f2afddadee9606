import { Hono } from 'hono';
import { z } from 'zod';
import { PaymentReferenceSchema } from '#common/schemas/checkout';
import type { AppEnv } from '#server/lib/hono-env';
import { transactionRequestRoutes } from '#server/lib/solana-pay-routes';
import { validate } from '#server/lib/validate';
import type { Config } from '#server/config';
import type { ChainService } from '#server/modules/chain/chain.service';
import type { CryptoPaymentsService } from './crypto-payments.service';
import type { PaymentsService } from './payments.service';
import type { StripeWebhooksService } from './stripe-webhooks.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface PaymentsRoutesDeps {
  chain: ChainService;
  config: Config;
  cryptoPayments: CryptoPaymentsService;
  payments: PaymentsService;
  stripeWebhooks: StripeWebhooksService;
}

const ReferenceParamSchema = z.object({ reference: PaymentReferenceSchema });
/** The checkout's access token (from the checkout answer): adds the order's number and links. */
const StatusQuerySchema = z.object({ token: z.string().max(200).optional() });

/**
 * The payment reference is the capability: whoever holds it (the shopper's browser) may read the
 * payment's status and cancel it while pending. Neither reveals shipping details. Once paid the
 * reference is public (named on the chain), so the order's number and links need the checkout's
 * access token as well (`?token=`).
 *
 * GET  /api/payments/:reference/status[?token=] -> PaymentStatusResponse
 * POST /api/payments/:reference/cancel -> PaymentStatusResponse
 */
export function paymentsRoutes(deps: PaymentsRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get(
      '/:reference/status',
      validate('param', ReferenceParamSchema),
      validate('query', StatusQuerySchema),
      async (c) => {
        c.header('Cache-Control', 'no-store');
        const { reference } = c.req.valid('param');
        return c.json(await deps.payments.getStatus(reference, c.req.valid('query').token));
      },
    )
    .post('/:reference/cancel', validate('param', ReferenceParamSchema), async (c) => {
      return c.json(await deps.payments.cancel(c.req.valid('param').reference));
    });
}

/** POST /api/webhooks/stripe: Stripe's signed events, verified against the raw body. */
export function stripeWebhookRoutes(deps: PaymentsRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().post('/', async (c) => {
    const rawBody = Buffer.from(await c.req.arrayBuffer());
    const result = await deps.stripeWebhooks.handleStripeWebhook(rawBody, c.req.header('stripe-signature'));
    return c.json({ received: true, ...result });
  });
}

/** Solana Pay transaction requests for checkout payments, at /api/solana-pay/payments/:reference. */
export function paymentTransactionRoutes(deps: PaymentsRoutesDeps): Hono<AppEnv> {
  return transactionRequestRoutes({
    shopName: deps.config.shopName,
    publicUrl: deps.config.publicUrl,
    chain: deps.chain,
    transactionFor: (reference, account) => deps.cryptoPayments.transactionFor(reference, account),
  });
}
