import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { clientKeyOf, clientNetworkKeyOf } from '../lib/client-ip';
import type { AppEnv } from '../lib/hono-env';
import { LedgerBusy, type LocalChainHost } from './local-chain';
import { createLocalChainLimiter, type LocalChainLimits } from './local-chain-limits';

/** The largest request body: a batch at the cap of sendTransaction calls fits many times over. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * POST /local-chain: the local ledger's Solana JSON-RPC (any origin may call it, as a public RPC
 * allows; it holds nothing private). Mounted only in local mode; otherwise the path is a 404.
 * Each client is held to its limits (local-chain-limits.ts): a batch over the cap is refused
 * (413), a client over its rate gets 429, each with a JSON-RPC error body; what is let in runs in
 * the ledger's worker within the per-request limits (rpc.ts).
 */
export function localChainRoutes(localChain: LocalChainHost, limits: LocalChainLimits) {
  const limiter = createLocalChainLimiter(limits);
  const router = new Hono<AppEnv>();
  router.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['POST', 'OPTIONS'],
      allowHeaders: ['content-type', 'solana-client'],
      exposeHeaders: ['retry-after'],
    }),
  );
  router.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        c.json(
          {
            jsonrpc: '2.0',
            error: {
              code: -32600,
              message: `Invalid request: the body may hold at most ${MAX_BODY_BYTES} bytes`,
            },
            id: null,
          },
          413,
        ),
    }),
  );
  router.post('/', async (c) => {
    const body = await c.req.text();
    const ip = c.var.clientIp;
    const admission = limiter.admit(
      { key: clientKeyOf(ip) ?? 'unknown', network: clientNetworkKeyOf(ip) ?? 'unknown' },
      body,
    );
    if (!admission.ok) {
      if (admission.retryAfterSeconds !== undefined)
        c.header('Retry-After', String(admission.retryAfterSeconds));
      return c.json(admission.body, admission.status);
    }
    const chain = await localChain.get();
    try {
      return c.body(await chain.handle(body, limits.request), 200, { 'content-type': 'application/json' });
    } catch (err) {
      if (!(err instanceof LedgerBusy)) throw err;
      c.header('Retry-After', '1');
      return c.json(
        {
          jsonrpc: '2.0',
          error: { code: 429, message: 'Too many requests: the ledger is busy; retry in 1 s' },
          id: null,
        },
        429,
      );
    }
  });
  router.get('/', (c) => c.text('Used HTTP Method is not allowed. POST or OPTIONS is required', 405));
  return router;
}
