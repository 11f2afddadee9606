import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { TransactionRequestInputSchema } from '#common/schemas/chain';
import type { AppEnv } from '#server/lib/hono-env';
import { solanaPayLabel } from '#server/lib/solana-pay-routes';
import { validate } from '#server/lib/validate';
import type { Config } from '#server/config';
import type { RefundsService } from './refunds.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface RefundsRoutesDeps {
  config: Config;
  refunds: RefundsService;
}

const RefundParamSchema = z.object({ id: z.string().min(1).max(64) });
const TokenQuerySchema = z.object({ token: z.string().max(200).default('') });

/**
 * /api/solana-pay/refunds/:id?token=: a crypto refund awaiting the shop wallet's signature, as a
 * Solana Pay transaction request for the admin's wallet (no key on this cluster). Wallets call it
 * without cookies, so the signed token in the URL (GET /api/admin/refunds/:id/sign-request hands
 * it out) is the permission; CORS *, CSRF-exempt like every /api/solana-pay/ path.
 */
export function refundTransactionRoutes(deps: RefundsRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Content-Type'] }))
    .get('/:id', validate('param', RefundParamSchema), (c) =>
      c.json(solanaPayLabel(deps.config.shopName, deps.config.publicUrl)),
    )
    .post(
      '/:id',
      validate('param', RefundParamSchema),
      validate('query', TokenQuerySchema),
      validate('json', TransactionRequestInputSchema),
      async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(
          await deps.refunds.signTransaction(
            c.req.valid('param').id,
            c.req.valid('query').token,
            c.req.valid('json').account,
          ),
        );
      },
    );
}
