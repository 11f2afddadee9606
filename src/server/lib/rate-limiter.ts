import type { Db } from '../db/client';
import { createCounters } from '../db/counters';
import { RateLimitedError } from './app-error';

/**
 * The shop's rate limiter: fixed windows counted in the database (rate_limit_counters), so a limit
 * holds across instances. Used by checkout (checkouts started per client) and by the sweeper.
 */

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

/** Counters untouched this long are deleted (longer than any configurable window). */
export const RATE_LIMIT_RETENTION_MS = 86_400_000 + 60_000;

export interface RateLimiter {
  /**
   * Counts one request of `subject` (a client IP, say) in the fixed window of `scope`; past `max`
   * it throws RateLimitedError with `message` and the seconds left in the window.
   */
  consume(scope: string, subject: string, rule: RateLimitRule, message?: string): Promise<void>;
  /** Deletes counters nobody has touched for a day (the sweeper calls it). */
  deleteExpired(now?: Date): Promise<number>;
}

export function createRateLimiter(db: Db): RateLimiter {
  const counters = createCounters(db);
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
