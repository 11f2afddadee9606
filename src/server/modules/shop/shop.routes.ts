import { Hono } from 'hono';
import type { ShopInfo } from '#common/schemas/shop';
import type { AppEnv } from '#server/lib/hono-env';
import type { Config } from '#server/config';
import type { ChainService } from '#server/modules/chain/chain.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface ShopRoutesDeps {
  chain: ChainService;
  config: Config;
}

/** GET /api/shop: what every storefront page may show about the shop itself (public, no secrets). */
export function shopRoutes(deps: ShopRoutesDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    const body: ShopInfo = {
      contactEmail: deps.config.contactEmail,
      token: await deps.chain.tokenInfo(),
      localMail: deps.config.mail.smtpUrl === null,
    };
    return c.json(body);
  });
}
