/**
 * What a rate limiter is, apart from where it counts: db/rate-limiter.ts counts in the database
 * (across instances); client-limits.ts counts a client and its network through any of them.
 */

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts one request of `subject` (a client IP, say) in the fixed window of `scope`; past `max`
   * it throws RateLimitedError with `message` and the seconds left in the window.
   */
  consume(scope: string, subject: string, rule: RateLimitRule, message?: string): Promise<void>;
  /** Deletes counters nobody has touched for a day (the sweeper calls it). */
  deleteExpired(now?: Date): Promise<number>;
}
