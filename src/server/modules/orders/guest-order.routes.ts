import { Hono } from 'hono';
import { GuestOrderQuerySchema } from '#common/schemas/guest-order';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';

/** GET /api/guest-orders/:id?token= -> GuestOrder (the signed link of an order mail; 404 otherwise). */
export function guestOrderRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/:id', validate('query', GuestOrderQuerySchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.json(await deps.guestOrders.get(c.req.param('id'), c.req.valid('query').token));
  });
}
