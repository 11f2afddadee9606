import { PGlite } from '@electric-sql/pglite';
import { pgliteSnapshot } from './pglite-template';

/**
 * In-memory PGlite databases handed from one test to the next within a worker. Opening one from the
 * migrated template costs about half a CPU second (a run opened about fifty); emptying a returned
 * one costs a few milliseconds, and leaves it as the template was: every table empty except
 * schema_migrations, every sequence at its start, a fresh session.
 */
const idle: PGlite[] = [];
/** Tests that hold several databases at once return them all; a few are kept for the next tests. */
const MAX_IDLE = 3;
const resetScripts = new WeakMap<PGlite, string>();

export interface PgliteLease {
  pglite: PGlite;
  /** Empties the database and keeps it for the next test (or closes it). Call once, after use. */
  giveBack(): Promise<void>;
}

export async function borrowPglite(): Promise<PgliteLease> {
  const pglite = idle.pop() ?? (await PGlite.create({ loadDataDir: pgliteSnapshot() }));
  let returned = false;
  return {
    pglite,
    async giveBack() {
      if (returned) return;
      returned = true;
      try {
        await reset(pglite);
      } catch {
        // A database that cannot be emptied is not handed on.
        await pglite.close().catch(() => undefined);
        return;
      }
      if (idle.length < MAX_IDLE) idle.push(pglite);
      else await pglite.close();
    },
  };
}

async function reset(pglite: PGlite): Promise<void> {
  // A transaction its last user left open, then the session: settings, prepared statements,
  // temporary tables, LISTENs and advisory locks.
  await pglite.exec('rollback');
  await pglite.exec('discard all');
  await pglite.exec(await resetScript(pglite));
}

/** Deletes every row (triggers off: no order between tables) and restarts every sequence. */
async function resetScript(pglite: PGlite): Promise<string> {
  const known = resetScripts.get(pglite);
  if (known) return known;
  const tables = await pglite.query<{ name: string }>(
    `select quote_ident(tablename) as name from pg_tables
     where schemaname = 'public' and tablename <> 'schema_migrations' order by tablename`,
  );
  const sequences = await pglite.query<{ name: string }>(
    `select quote_ident(sequence_name) as name from information_schema.sequences
     where sequence_schema = 'public' order by sequence_name`,
  );
  const script = [
    'set session_replication_role = replica;',
    ...tables.rows.map((t) => `delete from ${t.name};`),
    ...sequences.rows.map((s) => `alter sequence ${s.name} restart;`),
    'reset session_replication_role;',
  ].join('\n');
  resetScripts.set(pglite, script);
  return script;
}
