import { Hono } from 'hono';
import { ProductListQuerySchema } from '#common/schemas/product';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';

export function catalogRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', validate('query', ProductListQuerySchema), async (c) => {
      const page = await deps.catalog.listProducts(c.req.valid('query'));
      c.header('Cache-Control', 'no-cache');
      return c.json(page);
    })
    .get('/:id', async (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.json(await deps.catalog.getProduct(c.req.param('id')));
    });
}
