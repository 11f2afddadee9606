import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AppDeps } from './deps';
import type { AppEnv } from './lib/hono-env';
import { createCatalogListener } from './modules/catalog/catalog-listener';

/**
 * The Node request listener of the shop: the product list's cache hits are answered from the
 * prepared cache directly (modules/catalog/catalog-listener.ts, same bytes and headers as the
 * route), everything else by the Hono app through @hono/node-server, as `serve` would.
 */
export function createShopListener(
  app: Hono<AppEnv>,
  deps: Pick<AppDeps, 'catalog' | 'config' | 'logger'>,
  options: { hostname?: string } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const hono = getRequestListener(app.fetch, { hostname: options.hostname });
  const catalogList = createCatalogListener(deps);
  return (req, res) => {
    if (!catalogList(req, res)) void hono(req, res);
  };
}
