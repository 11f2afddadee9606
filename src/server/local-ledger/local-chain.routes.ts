import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { AppEnv } from '../lib/hono-env';
import type { LocalChainHost } from './local-chain';

/**
 * POST /local-chain: the local ledger's Solana JSON-RPC (any origin may call it, as a public RPC
 * allows; it holds nothing private). Mounted only in local mode; otherwise the path is a 404.
 */
export function localChainRoutes(localChain: LocalChainHost) {
  const router = new Hono<AppEnv>();
  router.use(
    '*',
    cors({ origin: '*', allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['content-type', 'solana-client'] }),
  );
  router.use('*', bodyLimit({ maxSize: 1024 * 1024 }));
  router.post('/', async (c) => {
    const chain = await localChain.get();
    return c.body(await chain.handle(await c.req.text()), 200, { 'content-type': 'application/json' });
  });
  router.get('/', (c) => c.text('Used HTTP Method is not allowed. POST or OPTIONS is required', 405));
  return router;
}
