import { sql } from 'kysely';
import type { Db } from './client';

/**
 * The shop's counters (table rate_limit_counters): fixed-window rate limits and the sign-in
 * failure counts, kept in the database so that limits hold across instances. better-auth keeps
 * its own in rate_limits and prunes them to its 60-second window, too short for ours.
 */
export function createCounters(db: Db) {
  return {
    /** One of the shop's counters (rate_limit_counters), or null. */
    async findCounter(key: string): Promise<{ count: number; lastMs: number } | null> {
      const row = await db
        .selectFrom('rate_limit_counters')
        .select(['count', 'last_request'])
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? { count: Number(row.count), lastMs: Number(row.last_request) } : null;
    },

    /**
     * Counts one more event and stamps it now; a counter whose last event is older than the window
     * starts again from 1. Atomic (one upsert), so concurrent failures are all counted.
     */
    async bumpCounter(key: string, windowMs: number, nowMs: number): Promise<number> {
      const result = await sql<{ count: number }>`
        insert into rate_limit_counters as r (key, count, last_request)
        values (${key}, 1, ${nowMs})
        on conflict (key) do update set
          count = case when r.last_request <= ${nowMs - windowMs} then 1 else r.count + 1 end,
          last_request = ${nowMs}
        returning count
      `.execute(db);
      return Number(result.rows[0]?.count ?? 1);
    },

    async deleteCounter(key: string): Promise<void> {
      await db.deleteFrom('rate_limit_counters').where('key', '=', key).execute();
    },

    /** Deletes every counter whose last event is older than `beforeMs`. */
    async deleteCountersBefore(beforeMs: number): Promise<number> {
      const result = await db
        .deleteFrom('rate_limit_counters')
        .where('last_request', '<', String(beforeMs))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * One atomic step of a fixed-window counter: starts a new window (count 1) when the stored one
     * has ended, otherwise adds one. `last_request` holds the window start here (epoch ms).
     * Returns the count including this hit and when the window started.
     */
    async hitFixedWindow(
      key: string,
      windowMs: number,
      nowMs: number,
    ): Promise<{ count: number; windowStartMs: number }> {
      const result = await sql<{ count: number; last_request: string | number }>`
        insert into rate_limit_counters as r (key, count, last_request)
        values (${key}, 1, ${nowMs})
        on conflict (key) do update set
          count = case when r.last_request <= ${nowMs - windowMs} then 1 else r.count + 1 end,
          last_request = case when r.last_request <= ${nowMs - windowMs} then ${nowMs} else r.last_request end
        returning count, last_request
      `.execute(db);
      const row = result.rows[0];
      if (!row) throw new Error('rate limit upsert returned no row');
      return { count: Number(row.count), windowStartMs: Number(row.last_request) };
    },
  };
}
