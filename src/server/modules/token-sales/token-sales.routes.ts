import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { TransactionRequestInputSchema } from '#common/schemas/chain';
import { PaymentReferenceSchema } from '#common/schemas/checkout';
import { TokenPurchaseInputSchema } from '#common/schemas/token-sale';
import type { AppDeps } from '#server/deps';
import { currentUser } from '#server/lib/auth-guards';
import { clientIpOf } from '#server/lib/client-ip';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import { solanaPayLabel } from '../payments/payments.routes';

const ReferenceParamSchema = z.object({ reference: PaymentReferenceSchema });

/**
 * Buy Token (anonymous or signed in; the reference is the capability, as for payments):
 * POST /api/token-purchases             {amountUsd} -> 201 TokenPurchaseResponse (quoted on the server)
 * GET  /api/token-purchases/:reference  -> TokenPurchaseResponse (the browser follows its status)
 */
export function tokenPurchaseRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .post('/', validate('json', TokenPurchaseInputSchema), async (c) => {
      const user = await currentUser(c);
      const purchase = await deps.tokenSales.create(c.req.valid('json'), {
        userId: user?.id ?? null,
        clientIp: clientIpOf(c) ?? null,
      });
      return c.json(purchase, 201);
    })
    .get('/:reference', validate('param', ReferenceParamSchema), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.tokenSales.get(c.req.valid('param').reference));
    });
}

/**
 * The purchase's Solana Pay transaction request, at /api/solana-pay/token-purchases/:reference:
 * GET answers the label and icon; POST {account} answers the one transaction of the purchase,
 * signed by the treasury, for that account to sign and send. CORS *, no cookies, CSRF-exempt.
 */
export function tokenPurchaseTransactionRoutes(deps: AppDeps): Hono<AppEnv> {
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
          await deps.tokenSales.transactionFor(c.req.valid('param').reference, c.req.valid('json').account),
        );
      },
    );
}
