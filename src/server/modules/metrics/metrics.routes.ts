import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { ErrorBody } from '#common/errors';
import type { AppEnv } from '#server/lib/hono-env';
import type { MetricsService } from './metrics.service';

/**
 * GET /metrics -> the Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>` only
 * (401 otherwise). Mounted only when METRICS_TOKEN is set; without it /metrics is an unknown
 * route (404).
 */
export function metricsRoutes(metrics: MetricsService, token: string): Hono<AppEnv> {
  const expected = digest(token);
  return new Hono<AppEnv>().get('/', async (c) => {
    c.header('Cache-Control', 'no-store');
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    // Digests of equal length, compared in constant time: neither the token nor its length leaks.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      const body: ErrorBody = {
        error: { code: 'UNAUTHENTICATED', message: 'A valid metrics token is required' },
      };
      return c.json(body, 401);
    }
    const { contentType, body } = await metrics.render();
    c.header('Content-Type', contentType);
    return c.body(body);
  });
}

/**
 * Counts every answered request with its latency, labelled by method, the route pattern Hono
 * matched (`/api/products/:id`, never the raw path) and status class. Whatever the catch-all
 * answers (the web app's pages, their 404s, static files) is one label each, `pages` or `static`.
 * `skip` leaves out requests that are not a client's (the pages' in-process API calls).
 */
export function httpMetrics(
  metrics: MetricsService,
  skip: (request: Request) => boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (skip(c.req.raw)) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.observeRequest({
        method: methodLabel(c.req.method),
        route: routeLabel(c),
        status: c.res.status,
        seconds: (performance.now() - started) / 1000,
      });
    }
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

function routeLabel(c: Context<AppEnv>): string {
  const pattern = routePath(c);
  if (pattern !== '*' && pattern !== '/*' && pattern !== '') return pattern;
  const path = c.req.path;
  if (path.startsWith('/api/')) return '/api/*';
  return path.startsWith('/assets/') ? 'static' : 'pages';
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
