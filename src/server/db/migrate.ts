import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../lib/logger';
import type { Database } from './client';
import { ADVISORY_LOCK_KEYS, holdingSessionLock } from './locks';

/** The migrations this build ships: db/migrations/NNNN_name.sql, in the order they apply. */
export function migrationFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
}

/**
 * Applies db/migrations/*.sql in name order, each in its own transaction, under an advisory lock
 * so that several instances starting together never apply one twice. Applied files are never
 * edited: a changed file is reported, not re-run.
 */
export async function migrate(database: Database, dir: string, logger: Logger): Promise<string[]> {
  const files = migrationFiles(dir);
  return database.withRawConnection(
    async (exec) => {
      // Only one instance migrates at a time; the others wait, then find nothing left to apply.
      return holdingSessionLock(exec, ADVISORY_LOCK_KEYS.migrations, async () => {
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
      });
      // Waiting for another instance's migrations, or building an index on a large table, may take
      // longer than a request's query may.
    },
    { untimed: true },
  );
}
