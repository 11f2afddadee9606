import { Hono } from 'hono';
import { CustomerOrdersQuerySchema } from '#common/schemas/customer-orders';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { CustomerOrdersService } from './customer-orders.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface CustomerOrdersRoutesDeps {
  customerOrders: CustomerOrdersService;
}

/** GET /api/orders?search=&status=&age= -> CustomerOrdersResponse (the signed-in customer's own). */
export function customerOrdersRoutes(deps: CustomerOrdersRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', requireUser, validate('query', CustomerOrdersQuerySchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await deps.customerOrders.list(c.var.user.id, c.req.valid('query')));
  });
}
