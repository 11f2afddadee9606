import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export type Backend = 'pglite' | 'postgres';

/** Set by .ci/run (and by hand) to a PostgreSQL server; database tests then run on both backends. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const BACKENDS: Backend[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

let warned = false;
export function warnIfPostgresSkipped(): void {
  if (!TEST_DATABASE_URL && !warned) {
    warned = true;
    console.warn('SKIPPED: PostgreSQL runs of database tests (TEST_DATABASE_URL is not set; PGlite only)');
  }
}

export interface ScratchDatabase {
  /** undefined for PGlite (in memory). */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database: in-memory PGlite (loaded from the migrated template by
 * openTestDatabase), or a new database on the TEST_DATABASE_URL server copied from the run's
 * migrated template database (tests/setup/global-setup.ts).
 */
export async function createScratchDatabase(backend: Backend): Promise<ScratchDatabase> {
  if (backend === 'pglite') return { url: undefined, drop: async () => undefined };
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const server = TEST_DATABASE_URL;
  const name = `shop_test_${randomBytes(6).toString('hex')}`;
  const template = inject('postgresTemplate');
  await withPostgres(server, (client) =>
    client.query(`create database ${name}${template ? ` template ${template}` : ''}`),
  );
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => dropDatabase(server, name),
  };
}

/** Runs `fn` with one client connected to the PostgreSQL server at `url`, then disconnects. */
export async function withPostgres<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await withPostgres(url, (client) => client.query(`drop database if exists ${name} with (force)`));
}

/** How many sessions of the PostgreSQL server at `url` are connected to `database`. */
export async function connectionsTo(url: string, database: string): Promise<number> {
  return withPostgres(url, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [database],
    );
    return rows[0]?.n ?? 0;
  });
}
