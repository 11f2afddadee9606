import type { RateLimiter, RateLimitRule } from '#server/db/rate-limiter';

/**
 * The one owner of "5 tries per quarter hour" for the changes a signed-in user makes with their
 * password (a new password: auth-sessions.ts; a new email: auth-email-change.ts). Each change has
 * its own count per user, taken before the password is checked, so a stolen session guessing the
 * password stops at the limit whatever the guesses were.
 */
export const ACCOUNT_CHANGE_RATE_LIMIT: RateLimitRule = { max: 5, windowSeconds: 15 * 60 };

export const ACCOUNT_CHANGE_RATE_LIMITED_MESSAGE =
  'Too many attempts. Please wait a few minutes and try again.';

/** The counter's scope (as stored in rate_limit_counters). */
export type AccountChange = 'password-change' | 'change-email';

export interface AccountChangeLimit {
  /** Counts one try; throws RateLimitedError (429) past the limit. */
  consume(change: AccountChange, userId: string): Promise<void>;
}

export function createAccountChangeLimit(limiter: RateLimiter): AccountChangeLimit {
  return {
    consume: (change, userId) =>
      limiter.consume(change, userId, ACCOUNT_CHANGE_RATE_LIMIT, ACCOUNT_CHANGE_RATE_LIMITED_MESSAGE),
  };
}
