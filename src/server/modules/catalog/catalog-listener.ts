import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getQueryParams } from 'hono/utils/url';
import { ProductListQuerySchema } from '#common/schemas/product';
import type { AppDeps } from '#server/deps';
import { createAccessLog } from '#server/lib/logger';
import { chooseEncoding, etagOf, matchesIfNoneMatch } from '#server/lib/prepared-body';
import { createSecurityHeaders, fixedHeadersOf } from '#server/lib/security-headers';
import { findNulPath } from '#server/lib/validate';
import type { ProductFilter } from './catalog.service';

/** Cache-Control of the catalogue's prepared answers (catalog.routes.ts sends the same). */
export const CATALOG_CACHE_CONTROL = 'no-cache';

const LIST_PATH = '/api/products';
/** Queries the URL parser leaves as they are (anything else goes to Hono, which sees it parsed). */
const PLAIN_QUERY = /^[A-Za-z0-9_.~=&%+-]*$/;
/** Raw query strings remembered with their parsed filter (a crawler varying them cannot grow it further). */
const KNOWN_QUERIES_MAX = 1_000;
/** As hono/request-id accepts a caller's id. */
const REQUEST_ID = /^[\w\-=]{1,255}$/;

/** Answers a request itself and says true, or says false without touching it (Hono answers). */
export type FastListener = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The storefront's busiest read, answered at the Node listener: an anonymous `GET /api/products`
 * whose page is in the catalogue's prepared cache, loaded and (for a compressed answer) already
 * compressed is written straight from the cache, with the same status, headers and bytes as the
 * Hono route (catalog.routes.ts through sendPrepared, after the request id, access log and API
 * security headers middleware): a 304 on a matching If-None-Match, else the body in the encoding
 * Accept-Encoding picks, with its ETag, Cache-Control, Vary, security headers, request id and the
 * access log line. A query string is parsed and validated once, as the route's validator does, and
 * remembered; an invalid one, a miss, any other method or path goes to Hono, which answers it as
 * before (its 400, the load, the compression). This skips the work Hono does per request (its
 * Request and Response objects, the middleware chain, the headers converted twice) for the one
 * route where that work is most of the cost (issue 15, benchmark 1). The route's reads never look
 * at the session, so no cookie is read here either.
 */
export function createCatalogListener(deps: Pick<AppDeps, 'catalog' | 'config' | 'logger'>): FastListener {
  const { catalog } = deps;
  const accessLog = createAccessLog(deps.logger);
  let securityHeaders: string[] | undefined;
  // Read from the API's own middleware, so both paths send the same set; Hono answers until then.
  void fixedHeadersOf(createSecurityHeaders(deps.config).api).then((pairs) => {
    securityHeaders = pairs.flat();
  });
  const knownQueries = new Map<string, ProductFilter | null>();

  /** The filter of a raw query string as the route's validator reads it, or null when invalid. */
  const filterOf = (query: string): ProductFilter | null => {
    let filter = knownQueries.get(query);
    if (filter !== undefined) return filter;
    filter = parseQuery(query);
    if (knownQueries.size >= KNOWN_QUERIES_MAX) knownQueries.clear();
    knownQueries.set(query, filter);
    return filter;
  };

  return (req, res) => {
    if (req.method !== 'GET' || securityHeaders === undefined) return false;
    const url = req.url;
    if (url === undefined || !url.startsWith(LIST_PATH)) return false;
    let query = '';
    if (url.length > LIST_PATH.length) {
      if (url.charCodeAt(LIST_PATH.length) !== 63 /* ? */) return false;
      query = url.slice(LIST_PATH.length + 1);
      if (!PLAIN_QUERY.test(query)) return false;
    }
    const started = performance.now();
    const filter = filterOf(query);
    if (filter === null) return false;
    const body = catalog.peekProductsPrepared(filter);
    if (body === undefined) return false;
    const encoding = chooseEncoding(req.headers['accept-encoding'], body.bytes.length);
    const notModified = matchesIfNoneMatch(req.headers['if-none-match'], body);
    const bytes = notModified ? undefined : encoding === 'identity' ? body.bytes : body.encodedNow(encoding);
    if (!notModified && bytes === undefined) return false;

    const callerId = req.headers['x-request-id'];
    const reqId = typeof callerId === 'string' && REQUEST_ID.test(callerId) ? callerId : randomUUID();
    const headers = [
      ...securityHeaders,
      'cache-control',
      CATALOG_CACHE_CONTROL,
      'etag',
      etagOf(body, encoding),
      'vary',
      'Accept-Encoding',
      'x-request-id',
      reqId,
    ];
    if (bytes === undefined) {
      res.writeHead(304, headers);
      res.end();
    } else {
      headers.push('content-type', body.contentType, 'content-length', String(bytes.length));
      if (encoding !== 'identity') headers.push('content-encoding', encoding);
      res.writeHead(200, headers);
      res.end(bytes);
    }
    accessLog(reqId, 'GET', LIST_PATH, res.statusCode, Math.round(performance.now() - started));
    return true;
  };
}

/** As validate('query', ProductListQuerySchema) reads a query (hono/validator's 'query' target). */
function parseQuery(query: string): ProductFilter | null {
  // Hono reads the query of the request's whole URL (it looks for '?' past the scheme).
  const params = getQueryParams(`http://localhost${LIST_PATH}?${query}`) as Record<string, string[]>;
  const value: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(params)) value[key] = values.length === 1 ? values[0]! : values;
  if (findNulPath(value) !== null) return null;
  const parsed = ProductListQuerySchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
