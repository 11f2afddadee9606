import { Hono } from 'hono';
import type { ShopInfo } from '#common/schemas/shop';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';

/** GET /api/shop: what every storefront page may show about the shop itself (public, no secrets). */
export function shopRoutes(deps: AppDeps) {
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
