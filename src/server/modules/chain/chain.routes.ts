import { Hono } from 'hono';
import { z } from 'zod';
import { SignatureSchema } from '#common/schemas/chain';
import { AppError } from '#server/lib/app-error';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { Config } from '#server/config';
import type { ChainService } from './chain.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface ChainRoutesDeps {
  chain: ChainService;
  config: Config;
}

/**
 * The local demo ledger's conveniences for the browser: 404 whenever it does not run (SOLANA_RPC_URL
 * set, LOCAL_LEDGER=off, or a live-looking configuration without LOCAL_LEDGER=demo: config.ts).
 *
 * GET /api/chain/demo-wallet                -> DemoWalletResponse (the demo shopper's key: local only)
 * GET /api/chain/transactions/:signature   -> ExplorerTransaction (the local explorer page)
 */
export function chainRoutes(deps: ChainRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get('/demo-wallet', async (c) => {
      const wallet = await deps.chain.demoWallet(deps.config.publicUrl);
      if (!wallet) throw new AppError('NOT_FOUND', 'The demo wallet exists only on the local ledger');
      c.header('Cache-Control', 'no-store');
      return c.json(wallet);
    })
    .get(
      '/transactions/:signature',
      validate('param', z.object({ signature: SignatureSchema })),
      async (c) => {
        const tx = await deps.chain.explorerTransaction(c.req.valid('param').signature);
        if (!tx) throw new AppError('NOT_FOUND', 'Transaction not found');
        c.header('Cache-Control', 'no-store');
        return c.json(tx);
      },
    );
}
