import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { TransactionRequestInputSchema } from '#common/schemas/chain';
import { PaymentReferenceSchema } from '#common/schemas/checkout';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';

const ReferenceParamSchema = z.object({ reference: PaymentReferenceSchema });

/**
 * The payment reference is the capability: whoever holds it (the shopper's browser) may read the
 * payment's status and cancel it while pending. Neither reveals shipping details.
 *
 * GET  /api/payments/:reference/status -> PaymentStatusResponse
 * POST /api/payments/:reference/cancel -> PaymentStatusResponse
 */
export function paymentsRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get('/:reference/status', validate('param', ReferenceParamSchema), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.payments.getStatus(c.req.valid('param').reference));
    })
    .post('/:reference/cancel', validate('param', ReferenceParamSchema), async (c) => {
      return c.json(await deps.payments.cancel(c.req.valid('param').reference));
    });
}

/** POST /api/webhooks/stripe: Stripe's signed events, verified against the raw body. */
export function stripeWebhookRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().post('/', async (c) => {
    const rawBody = Buffer.from(await c.req.arrayBuffer());
    const result = await deps.stripeWebhooks.handleStripeWebhook(rawBody, c.req.header('stripe-signature'));
    return c.json({ received: true, ...result });
  });
}

/** What a Solana Pay wallet shows before it asks for the account (GET of a transaction request). */
export function solanaPayLabel(publicUrl: string) {
  return { label: 'Aelo', icon: `${publicUrl}/favicon.svg` };
}

/**
 * Solana Pay transaction requests for checkout payments, at /api/solana-pay/payments/:reference:
 * GET answers the label and icon; POST {account} answers the payment's transfer as an unsigned
 * transaction for that account to sign and send. Called by wallets from anywhere (CORS *, no
 * cookies, exempt from the CSRF check); the reference is the capability, the amount the server's.
 */
export function paymentTransactionRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Content-Type'] }))
    .get('/:reference', validate('param', ReferenceParamSchema), (c) =>
      c.json(solanaPayLabel(deps.config.publicUrl)),
    )
    .post(
      '/:reference',
      validate('param', ReferenceParamSchema),
      validate('json', TransactionRequestInputSchema),
      async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(
          await deps.cryptoPayments.transactionFor(
            c.req.valid('param').reference,
            c.req.valid('json').account,
          ),
        );
      },
    );
}
