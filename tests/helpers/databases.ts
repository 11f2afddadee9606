import { randomBytes } from 'node:crypto';
import pg from 'pg';

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

/** A fresh, empty database: in-memory PGlite, or a new database on the TEST_DATABASE_URL server. */
export async function createScratchDatabase(backend: Backend): Promise<ScratchDatabase> {
  if (backend === 'pglite') return { url: undefined, drop: async () => undefined };
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `shop_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
