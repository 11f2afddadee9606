import { Hono } from 'hono';
import { CustomerOrdersQuerySchema } from '#common/schemas/customer-orders';
import type { AppDeps } from '#server/deps';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';

/** GET /api/orders?search=&status=&age= -> CustomerOrdersResponse (the signed-in customer's own). */
export function customerOrdersRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', requireUser, validate('query', CustomerOrdersQuerySchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await deps.customerOrders.list(c.var.user.id, c.req.valid('query')));
  });
}
