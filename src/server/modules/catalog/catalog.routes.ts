import { Hono } from 'hono';
import { ProductListQuerySchema } from '#common/schemas/product';
import type { AppEnv } from '#server/lib/hono-env';
import { sendPrepared } from '#server/lib/send-prepared';
import { validate } from '#server/lib/validate';
import type { ProductFilter } from './catalog.service';
import type { CatalogService } from './catalog.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface CatalogRoutesDeps {
  catalog: CatalogService;
}

/** Cache-Control of the catalogue's prepared answers: kept, but revalidated (ETag) before each use. */
export const CATALOG_CACHE_CONTROL = 'no-cache';

/** Raw query strings remembered with their filter (a crawler varying them cannot grow it further). */
const KNOWN_QUERIES_MAX = 1_000;

/**
 * The storefront's reads: prepared bytes from the catalogue's cache, with an ETag (304 when the
 * browser's copy is current). Anonymous: neither looks at the session.
 */
export function catalogRoutes(deps: CatalogRoutesDeps) {
  const { catalog } = deps;
  return new Hono<AppEnv>()
    .get('/', listQuery(), async (c) => {
      const filter = c.req.valid('query');
      // A page already loaded is answered at once; otherwise (and for a cursor, checked there) it is loaded.
      const body = catalog.peekProductsPrepared(filter) ?? (await catalog.listProductsPrepared(filter));
      return sendPrepared(c, body, CATALOG_CACHE_CONTROL);
    })
    .get('/:id', async (c) =>
      sendPrepared(c, await catalog.getProductPrepared(c.req.param('id')), CATALOG_CACHE_CONTROL),
    );
}

/**
 * validate('query', ProductListQuerySchema), remembered by the raw query string: the storefront asks
 * for the same few pages over and over, and the same string always parses to the same filter, so
 * it is parsed and checked once (the first time through the validator itself, whose 400 an invalid
 * one gets every time: only valid ones are remembered).
 */
function listQuery() {
  const check = validate('query', ProductListQuerySchema);
  const known = new Map<string, Readonly<ProductFilter>>();
  const remembered: typeof check = (c, next) => {
    const url = c.req.url;
    const at = url.indexOf('?');
    const query = at < 0 ? '' : url.slice(at + 1);
    const filter = known.get(query);
    if (filter !== undefined) {
      c.req.addValidatedData('query', filter);
      return next();
    }
    return check(c, () => {
      if (known.size >= KNOWN_QUERIES_MAX) known.clear();
      known.set(query, Object.freeze(c.req.valid('query')));
      return next();
    });
  };
  return remembered;
}
