import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database } from '#server/db/client';
import { openTestDatabase } from '../helpers/test-app';
import { createLogger } from '#server/lib/logger';
import { BACKENDS, createScratchDatabase, type ScratchDatabase } from '../helpers/databases';

/**
 * A failed query is logged with its message and code, never with the values it was sent (they
 * can be session tokens, password hashes or shipping details).
 */
describe.each(BACKENDS)('database errors in the log (%s)', (backend) => {
  let scratch: ScratchDatabase;
  let database: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase(backend);
    database = await openTestDatabase(scratch, { poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('leaves out the query parameters of a failed query', async () => {
    const secret = 'session-token-that-must-not-be-logged';
    const err = await sql`select ${secret}::text as token, 1 / 0 as boom`.execute(database.db).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);

    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('error', sink).child({ module: 'test' });
    logger.error({ err }, 'unhandled error');
    logger.error({ component: 'better-auth', err }, 'query failed');

    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      const entry = JSON.parse(line) as { err: { message: string } };
      expect(entry.err.message).toMatch(/division by zero/i);
    }
  });
});
