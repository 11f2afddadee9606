/**
 * Vitest global setup, run once before any test file:
 * - one migrated PGlite database (without initdb's template databases, which the shop never uses),
 *   made once per migration set and kept in node_modules/.cache, so that a test database or a
 *   browser-test server starts from a copy instead of running PostgreSQL's initdb and every
 *   migration again (about four seconds each on a busy two-core machine, paid by every test app
 *   before). It is kept in two forms: `pgdata/`, a data directory a spawned server copies into its
 *   DATA_DIR, and `dump.tar`, the dump an in-memory PGlite loads (`loadDataDir`);
 * - the demo photos rendered into the photo cache, so that servers seeding the demo catalogue
 *   only read them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '#server/config';
import { openDatabase } from '#server/db/client';
import { migrate } from '#server/db/migrate';
import { createLogger } from '#server/lib/logger';
import { warmDemoPhotoCache } from '#server/seed/demo-seed';
import { createPhotoCache } from '#server/seed/photo-cache';
import { migrationsDir, projectRoot as ROOT_DIR } from '#server/lib/paths';
import { connectionsTo, dropDatabase, TEST_DATABASE_URL, withPostgres } from '../helpers/databases';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder holding `pgdata/` and `dump.tar` of a migrated PGlite database. */
    pgliteTemplateDir: string;
    /** A migrated database on TEST_DATABASE_URL's server that scratch databases are copied from ('' without one). */
    postgresTemplate: string;
  }
}

function templateKey(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(
    readFileSync(path.join(ROOT_DIR, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(`pglite ${pglite.version}\nwithout template0 and template1\n`);
  for (const file of readdirSync(migrationsDir).sort()) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(path.join(migrationsDir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

export async function ensurePgliteTemplate(): Promise<string> {
  const cacheRoot = path.join(ROOT_DIR, 'node_modules/.cache/aelo-pglite-template');
  const dir = path.join(cacheRoot, templateKey());
  if (existsSync(path.join(dir, 'dump.tar'))) return dir;

  // Built beside the final folder and renamed into place, so a concurrent run never sees half of it.
  const work = path.join(cacheRoot, `.building-${randomBytes(4).toString('hex')}`);
  mkdirSync(work, { recursive: true });
  try {
    const logger = createLogger('silent');
    const database = await openDatabase({
      databaseUrl: undefined,
      pgliteDir: path.join(work, 'pgdata'),
      logger,
    });
    await migrate(database, migrationsDir, logger);
    await database.close();
    // Dump from a copy opened fresh, so the dump is the closed, checkpointed directory.
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create(path.join(work, 'pgdata'));
    // The shop lives in the `postgres` database and never creates another, so a test database
    // has no use for initdb's template0 and template1: without them the dump is 42 -> 27 MB and
    // every test database opens in about 0.8 s of CPU instead of 1.1 s.
    await pglite.exec(
      `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
    );
    await pglite.exec('drop database template0');
    await pglite.exec('drop database template1');
    await pglite.exec('checkpoint');
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    writeFileSync(path.join(work, 'dump.tar'), Buffer.from(await dump.arrayBuffer()));
    try {
      renameSync(work, dir);
    } catch {
      // Another run put the same template in place first.
      rmSync(work, { recursive: true, force: true });
    }
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  return dir;
}

/**
 * Renders the demo photos missing from the cache the servers use (DEMO_PHOTO_CACHE_DIR's
 * default), once, before browser-test servers and the seed tests start; afterwards seeding only
 * reads the cache instead of several servers rendering the same photos at once.
 */
async function warmDemoPhotos(): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'false' });
  const cache = createPhotoCache(config.demoPhotoCacheDir, createLogger('silent'));
  await warmDemoPhotoCache(cache, Math.min(4, Math.max(1, availableParallelism())));
}

/**
 * With TEST_DATABASE_URL: one migrated database on that server for this run, which every scratch
 * database copies (`create database … template …`) instead of running the migrations again.
 * Returns its name and a function that drops it.
 */
async function createPostgresTemplate(): Promise<{ name: string; drop: () => Promise<void> }> {
  const url = TEST_DATABASE_URL;
  if (!url) return { name: '', drop: async () => undefined };
  const name = `shop_template_${randomBytes(6).toString('hex')}`;
  await withPostgres(url, (client) => client.query(`create database ${name}`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  const logger = createLogger('silent');
  const database = await openDatabase({ databaseUrl: target.toString(), pgliteDir: 'memory://', logger });
  try {
    await migrate(database, migrationsDir, logger);
  } finally {
    await database.close();
  }
  // A copy waits (up to 5 s) while anyone is still connected to its template: let the pool's
  // connections finish closing first.
  const deadline = Date.now() + 10_000;
  while ((await connectionsTo(url, name)) > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    name,
    drop: () => dropDatabase(url, name),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [templateDir, postgres] = await Promise.all([
    ensurePgliteTemplate(),
    createPostgresTemplate(),
    warmDemoPhotos(),
  ]);
  project.provide('pgliteTemplateDir', templateDir);
  project.provide('postgresTemplate', postgres.name);
  return postgres.drop;
}
