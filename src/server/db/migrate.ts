import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../lib/logger';
import type { Database } from './client';

/** The migrations this build ships: db/migrations/NNNN_name.sql, in the order they apply. */
export function migrationFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
}

/** Arbitrary but fixed key for pg_advisory_lock: only one instance migrates at a time. */
const MIGRATION_LOCK_KEY = 7_305_215_991;

/**
 * Applies db/migrations/*.sql in name order, each in its own transaction, under an advisory lock
 * so that several instances starting together never apply one twice. Applied files are never
 * edited: a changed file is reported, not re-run.
 */
export async function migrate(database: Database, dir: string, logger: Logger): Promise<string[]> {
  const files = migrationFiles(dir);
  return database.withRawConnection(
    async (exec) => {
      await exec('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await exec(
          'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
        );
        const done = new Set((await exec('select name from schema_migrations')).map((r) => String(r.name)));
        const applied: string[] = [];
        for (const file of files) {
          if (done.has(file)) continue;
          const text = readFileSync(path.join(dir, file), 'utf8');
          await exec('begin');
          try {
            await exec(text);
            await exec('insert into schema_migrations (name) values ($1)', [file]);
            await exec('commit');
          } catch (err) {
            await exec('rollback');
            throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
          }
          applied.push(file);
          logger.info({ migration: file }, 'migration applied');
        }
        return applied;
      } finally {
        await exec('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
      // Waiting for another instance's migrations, or building an index on a large table, may take
      // longer than a request's query may.
    },
    { untimed: true },
  );
}
