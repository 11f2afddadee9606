import { Hono } from 'hono';
import { z } from 'zod';
import { PaymentReferenceSchema } from '#common/schemas/checkout';
import { TokenPurchaseInputSchema } from '#common/schemas/token-sale';
import { currentUser } from '#server/lib/auth-guards';
import { clientKeysOf } from '#server/lib/client-ip';
import type { AppEnv } from '#server/lib/hono-env';
import { transactionRequestRoutes } from '#server/lib/solana-pay-routes';
import { validate } from '#server/lib/validate';
import type { Config } from '#server/config';
import type { ChainService } from '#server/modules/chain/chain.service';
import type { TokenSalesService } from './token-sales.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface TokenSalesRoutesDeps {
  chain: ChainService;
  config: Config;
  tokenSales: TokenSalesService;
}

const ReferenceParamSchema = z.object({ reference: PaymentReferenceSchema });

/**
 * Buy Token (anonymous or signed in; the reference is the capability, as for payments):
 * POST /api/token-purchases             {amountUsd} -> 201 TokenPurchaseResponse (quoted on the server)
 * GET  /api/token-purchases/:reference  -> TokenPurchaseResponse (the browser follows its status)
 */
export function tokenPurchaseRoutes(deps: TokenSalesRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .post('/', validate('json', TokenPurchaseInputSchema), async (c) => {
      const user = await currentUser(c);
      const purchase = await deps.tokenSales.create(c.req.valid('json'), {
        userId: user?.id ?? null,
        client: clientKeysOf(c) ?? null,
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
 * POST {account} answers the one transaction of the purchase, signed by the treasury, for that
 * account to sign and send.
 */
export function tokenPurchaseTransactionRoutes(deps: TokenSalesRoutesDeps): Hono<AppEnv> {
  return transactionRequestRoutes({
    shopName: deps.config.shopName,
    publicUrl: deps.config.publicUrl,
    chain: deps.chain,
    transactionFor: (reference, account) => deps.tokenSales.transactionFor(reference, account),
  });
}
