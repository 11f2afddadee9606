import { Hono } from 'hono';
import { currentUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { migrationsDir } from '#server/lib/paths';
import { createHealthService } from './health.service';
import type { Database } from '#server/db/client';
import type { Lifecycle } from '#server/lib/lifecycle';

/** What these routes use of the app's services (deps.ts builds them). */
export interface HealthRoutesDeps {
  database: Database;
  lifecycle: Lifecycle;
}

/**
 * GET /api/health -> 200 { status, database } (503 when the database is down). Which database the
 * shop runs on is a detail for its operators: only an admin's request also gets `backend`.
 *
 * GET /api/health/live -> 200 { status: 'live' } while the process serves (no database call): a
 * liveness probe restarts a process that stops answering, not one whose database is down.
 * GET /api/health/ready -> 200 { status: 'ready' }, or 503 { status: 'not-ready', reason } when
 * the instance is shutting down, the database does not answer, or a migration of this build is not
 * recorded (`missing` names them): a load balancer sends traffic only to a ready instance.
 * None of the three is cached or written to the access log.
 */
export function healthRoutes(deps: HealthRoutesDeps) {
  const health = createHealthService({ database: deps.database, lifecycle: deps.lifecycle, migrationsDir });
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const database = await deps.database.ping().catch(() => false);
      c.header('Cache-Control', 'no-store');
      const body = { status: database ? 'ok' : 'degraded', database: database ? 'ok' : 'down' };
      // Load balancers poll this without cookies: no session lookup for them.
      const isAdmin =
        database &&
        c.req.header('cookie') !== undefined &&
        (await currentUser(c).catch(() => null))?.role === 'admin';
      return c.json(isAdmin ? { ...body, backend: deps.database.backend } : body, database ? 200 : 503);
    })
    .get('/live', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ status: 'live' });
    })
    .get('/ready', async (c) => {
      c.header('Cache-Control', 'no-store');
      const readiness = await health.readiness();
      if (readiness.ready) return c.json({ status: 'ready' });
      const missing = readiness.reason === 'migrations-missing' ? { missing: readiness.missing } : {};
      return c.json({ status: 'not-ready', reason: readiness.reason, ...missing }, 503);
    });
}
