import { Hono } from 'hono';
import { GuestOrderQuerySchema } from '#common/schemas/guest-order';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { GuestOrderService } from './guest-order.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface GuestOrderRoutesDeps {
  guestOrders: GuestOrderService;
}

/** GET /api/guest-orders/:id?token= -> GuestOrder (the signed link of an order mail; 404 otherwise). */
export function guestOrderRoutes(deps: GuestOrderRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/:id', validate('query', GuestOrderQuerySchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.json(await deps.guestOrders.get(c.req.param('id'), c.req.valid('query').token));
  });
}
