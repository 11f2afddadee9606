/**
 * The in-memory PGlite a test hands on (helpers/pglite-pool.ts) reaches the next test as the
 * migrated template left it, and the Database the first test closed cannot reach it any more.
 */
import { sql } from 'kysely';
import { openDatabase, type Database } from '#server/db/client';
import { createLogger } from '#server/lib/logger';
import { describe, expect, it } from 'vitest';
import { borrowPglite } from '../helpers/pglite-pool';

const logger = createLogger('silent');

describe('a PGlite handed from one test to the next', () => {
  it('comes back empty, its sequences restarted and its session fresh; the old Database is shut out', async () => {
    const first = await borrowPglite();
    const used = await openDatabase({
      databaseUrl: undefined,
      pgliteDir: 'memory://',
      logger,
      pglite: first.pglite,
    });
    const template = await tableRows(used);
    expect(template.get('schema_migrations')).toBeGreaterThan(0);
    expect([...template].filter(([table, rows]) => table !== 'schema_migrations' && rows > 0)).toEqual([]);

    // What a test leaves behind: rows (in an append-only table too), a used sequence, a LISTEN,
    // an advisory lock, a session setting and a transaction it never ended.
    await sql`insert into users (id, email) values ('u1', 'u1@aelo.test')`.execute(used.db);
    await sql`insert into admin_audit_log (action, actor_id) values ('test', 'u1')`.execute(used.db);
    const heard: string[] = [];
    await used.listen('pool_test', (payload) => heard.push(payload));
    await used.withRawConnection(async (exec) => {
      await exec('select pg_advisory_lock(42)');
      await exec("set statement_timeout = '1s'");
      await exec('begin');
      await exec("insert into users (id, email) values ('u2', 'u2@aelo.test')");
    });
    await used.close();
    await first.giveBack();

    const second = await borrowPglite();
    expect(second.pglite).toBe(first.pglite);
    const fresh = await openDatabase({
      databaseUrl: undefined,
      pgliteDir: 'memory://',
      logger,
      pglite: second.pglite,
    });
    expect(await tableRows(fresh)).toEqual(template);
    const { rows } = await sql<{ id: string }>`
      insert into admin_audit_log (action) values ('next') returning id::text`.execute(fresh.db);
    expect(rows[0]?.id).toBe('1');
    await fresh.withRawConnection(async (exec) => {
      expect(await exec('select pg_listening_channels() as channel')).toEqual([]);
      expect(await exec('select pg_try_advisory_lock(42) as locked')).toEqual([{ locked: true }]);
      expect(await exec("select current_setting('statement_timeout') as value")).toEqual([{ value: '0' }]);
    });
    // A listener of the fresh Database hears the notice: the old one, had it kept its LISTEN,
    // would have heard it by then (one PGlite, one delivery to every listener).
    const heardFresh: string[] = [];
    const unlisten = await fresh.listen('pool_test', (payload) => heardFresh.push(payload));
    await fresh.notify('pool_test', 'for the next test');
    await expect.poll(() => heardFresh).toEqual(['for the next test']);
    await unlisten();
    expect(heard).toEqual([]);

    await expect(sql`select 1`.execute(used.db)).rejects.toThrow();
    await expect(used.withRawConnection((exec) => exec('select 1'))).rejects.toThrow();
    await fresh.close();
    await second.giveBack();
  });
});

/** Rows per table of the public schema. */
async function tableRows(database: Database): Promise<Map<string, number>> {
  const tables = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = 'public' order by tablename`.execute(
    database.db,
  );
  const counts = new Map<string, number>();
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(
      database.db,
    );
    counts.set(name, rows[0]?.n ?? 0);
  }
  return counts;
}
