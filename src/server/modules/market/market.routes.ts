import { Hono } from 'hono';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';

export function marketRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/token-stats', async (c) => {
      c.header('Cache-Control', 'public, max-age=30');
      return c.json(await deps.market.tokenStats());
    })
    .get('/sol-price', async (c) => {
      c.header('Cache-Control', 'public, max-age=30');
      return c.json(await deps.market.solPrice());
    });
}
