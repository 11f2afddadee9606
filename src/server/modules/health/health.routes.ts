import { Hono } from 'hono';
import type { AppDeps } from '../../deps';
import type { AppEnv } from '../../lib/hono-env';

export function healthRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', async (c) => {
    const database = await deps.database.ping().catch(() => false);
    return c.json(
      {
        status: database ? 'ok' : 'degraded',
        database: database ? 'ok' : 'down',
        backend: deps.database.backend,
      },
      database ? 200 : 503,
    );
  });
}
