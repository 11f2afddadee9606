import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client';
import { migrate } from '#server/db/migrate';
import { createLogger } from '#server/lib/logger';
import { migrationsDir } from '#server/lib/paths';
import {
  createScratchDatabase,
  TEST_DATABASE_URL,
  warnIfPostgresSkipped,
  withPostgres,
  type ScratchDatabase,
} from '../helpers/databases';

warnIfPostgresSkipped();

describe('the PostgreSQL client (postgres)', () => {
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    if (TEST_DATABASE_URL) scratch = await createScratchDatabase('postgres');
  });
  afterAll(async () => {
    await scratch?.drop();
  });

  async function connectionsTo(url: string): Promise<number> {
    const name = new URL(url).pathname.slice(1);
    return withPostgres(TEST_DATABASE_URL!, async (client) => {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      return rows[0]!.n;
    });
  }

  it.skipIf(!TEST_DATABASE_URL)(
    'ends every connection on close, also when only raw connections were used (the migrations)',
    async () => {
      const url = scratch!.url!;
      const database = await openDatabase({
        databaseUrl: url,
        pgliteDir: 'memory://',
        logger: createLogger('silent'),
      });
      await migrate(database, migrationsDir, createLogger('silent'));
      expect(await connectionsTo(url)).toBe(1);
      await database.close();
      // The server sees a connection go a moment after the client has sent its goodbye; before the
      // fix the pool kept it open for its 10 s idle timeout.
      const deadline = Date.now() + 3_000;
      let open = await connectionsTo(url);
      while (open > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        open = await connectionsTo(url);
      }
      expect(open).toBe(0);
    },
  );
});
