import type { Db } from './client';
import { createCounters } from './counters';
import { RateLimitedError } from '../lib/app-error';
import type { RateLimiter } from '../lib/rate-limit';
import type { FixedWindowCounters } from './redis';

export type { RateLimiter, RateLimitRule } from '../lib/rate-limit';

/**
 * The shop's rate limiter: fixed windows counted in the database (rate_limit_counters), so a limit
 * holds across instances, beside the counters it keeps them in (counters.ts). What a limiter is
 * (RateLimiter, RateLimitRule) is lib's (rate-limit.ts), so lib's client limits need no database.
 */

/** Counters untouched this long are deleted (longer than any configurable window). */
export const RATE_LIMIT_RETENTION_MS = 86_400_000 + 60_000;

/**
 * `counters` defaults to the database's; with REDIS_URL the shop hands in Redis's (db/redis.ts),
 * which keeps the same fixed windows.
 */
export function createRateLimiter(db: Db, counters: FixedWindowCounters = createCounters(db)): RateLimiter {
  return {
    async consume(scope, subject, rule, message) {
      const windowMs = rule.windowSeconds * 1000;
      const now = Date.now();
      const { count, windowStartMs } = await counters.hitFixedWindow(`${scope}|${subject}`, windowMs, now);
      if (count > rule.max) throw new RateLimitedError((windowStartMs + windowMs - now) / 1000, message);
    },
    deleteExpired(now = new Date()) {
      return counters.deleteCountersBefore(now.getTime() - RATE_LIMIT_RETENTION_MS);
    },
  };
}
