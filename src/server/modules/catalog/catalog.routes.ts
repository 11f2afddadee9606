import { Hono } from 'hono';
import { ProductListQuerySchema } from '#common/schemas/product';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';
import { sendPrepared } from '#server/lib/send-prepared';
import { validate } from '#server/lib/validate';

/** Cache-Control of the catalogue's prepared answers: kept, but revalidated (ETag) before each use. */
export const CATALOG_CACHE_CONTROL = 'no-cache';

/**
 * The storefront's reads: prepared bytes from the catalogue's cache, with an ETag (304 when the
 * browser's copy is current). Anonymous: neither looks at the session.
 */
export function catalogRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', validate('query', ProductListQuerySchema), async (c) =>
      sendPrepared(c, await deps.catalog.listProductsPrepared(c.req.valid('query')), CATALOG_CACHE_CONTROL),
    )
    .get('/:id', async (c) =>
      sendPrepared(c, await deps.catalog.getProductPrepared(c.req.param('id')), CATALOG_CACHE_CONTROL),
    );
}
