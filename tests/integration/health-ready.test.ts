import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#server/app';
import { migrationFiles } from '#server/db/migrate';
import { createLifecycle } from '#server/lib/lifecycle';
import { migrationsDir } from '#server/lib/paths';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { openTestDatabase, startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The probes an operator wires up (issue 41): /api/health/live answers while the process serves,
 * without asking the database; /api/health/ready only when the database answers, every migration
 * this build ships is recorded in schema_migrations and the instance is not shutting down.
 * Through the real app and database, on both backends.
 */
describe.each(BACKENDS)('liveness and readiness (%s)', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    t = await startTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (app: { request: (path: string) => Response | Promise<Response> }, path: string) => {
    const res = await app.request(path);
    expect(res.headers.get('cache-control'), path).toBe('no-store');
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('is live and ready on a migrated database, and /api/health is unchanged', async () => {
    expect(await get(t.app, '/api/health/live')).toEqual({ status: 200, body: { status: 'live' } });
    expect(await get(t.app, '/api/health/ready')).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await get(t.app, '/api/health')).toEqual({ status: 200, body: { status: 'ok', database: 'ok' } });
  });

  it('is not ready while a migration this build ships is missing from schema_migrations', async () => {
    const db = t.deps.database.db;
    const name = migrationFiles(migrationsDir).at(-1)!;
    const row = await db
      .selectFrom('schema_migrations')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('schema_migrations').where('name', '=', name).execute();
    try {
      expect(await get(t.app, '/api/health/ready')).toEqual({
        status: 503,
        body: { status: 'not-ready', reason: 'migrations-missing', missing: [name] },
      });
      // Alive all the same: a restart would not bring the migration.
      expect((await get(t.app, '/api/health/live')).status).toBe(200);
    } finally {
      // The database goes back as it was (a PGlite one is handed to the next test file).
      await db.insertInto('schema_migrations').values(row).execute();
    }
    expect((await get(t.app, '/api/health/ready')).status).toBe(200);
  });

  it('is not ready once the instance drains, while it stays live', async () => {
    const lifecycle = createLifecycle();
    const app = createApp({ ...t.deps, lifecycle });
    expect((await get(app, '/api/health/ready')).status).toBe(200);
    lifecycle.drain();
    expect(await get(app, '/api/health/ready')).toEqual({
      status: 503,
      body: { status: 'not-ready', reason: 'shutting-down' },
    });
    expect((await get(app, '/api/health/live')).status).toBe(200);
    // No new live-event stream on a draining instance: the browser reconnects to another.
    expect((await app.request('/api/events?topics=catalog')).status).toBe(503);
  });

  it('is not ready when the database does not answer, and live without asking it', async () => {
    const url = t.deps.config.databaseUrl;
    const gone = await openTestDatabase({ url, drop: async () => undefined });
    await gone.close();
    const app = createApp({ ...t.deps, database: gone });
    expect(await get(app, '/api/health/live')).toEqual({ status: 200, body: { status: 'live' } });
    expect(await get(app, '/api/health/ready')).toEqual({
      status: 503,
      body: { status: 'not-ready', reason: 'database-unavailable' },
    });
  });
});
