import { Hono } from 'hono';
import type { AppDeps } from '#server/deps';
import { currentUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';

/**
 * GET /api/health -> 200 { status, database } (503 when the database is down). Which database the
 * shop runs on is a detail for its operators: only an admin's request also gets `backend`.
 */
export function healthRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    const database = await deps.database.ping().catch(() => false);
    c.header('Cache-Control', 'no-store');
    const body = { status: database ? 'ok' : 'degraded', database: database ? 'ok' : 'down' };
    // Load balancers poll this without cookies: no session lookup for them.
    const isAdmin =
      database &&
      c.req.header('cookie') !== undefined &&
      (await currentUser(c).catch(() => null))?.role === 'admin';
    return c.json(isAdmin ? { ...body, backend: deps.database.backend } : body, database ? 200 : 503);
  });
}
