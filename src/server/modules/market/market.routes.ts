import { Hono } from 'hono';
import type { AppEnv } from '#server/lib/hono-env';
import type { MarketService } from './market.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface MarketRoutesDeps {
  market: MarketService;
}

export function marketRoutes(deps: MarketRoutesDeps) {
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
