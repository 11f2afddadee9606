import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client';
import { migrate } from '#server/db/migrate';
import { createLogger } from '#server/lib/logger';
import { migrationsDir } from '#server/lib/paths';
import {
  connectionsTo,
  createScratchDatabase,
  TEST_DATABASE_URL,
  warnIfPostgresSkipped,
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
      const name = new URL(url).pathname.slice(1);
      expect(await connectionsTo(TEST_DATABASE_URL!, name)).toBe(1);
      await database.close();
      // The server sees a connection go a moment after the client has sent its goodbye; before the
      // fix the pool kept it open for its 10 s idle timeout.
      await expect
        .poll(() => connectionsTo(TEST_DATABASE_URL!, name), { timeout: 3_000, interval: 20 })
        .toBe(0);
    },
  );
});
