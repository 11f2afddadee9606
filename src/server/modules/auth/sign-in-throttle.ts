import { createHash } from 'node:crypto';
import type { Config } from '#server/config';
import type { Db } from '#server/db/client';
import { createCounters } from '#server/db/counters';
import { RateLimitedError } from '#server/lib/app-error';

/** The 429 of a throttled sign-in. */
export const SIGN_IN_THROTTLED_MESSAGE =
  'Too many failed sign-in attempts. Please wait a moment and try again.';

/** A client address may fail this many times more often than one email from it. */
const CLIENT_FAILURE_FACTOR = 4;

/**
 * Failed sign-ins (OWASP authentication cheat sheet: throttle, never lock out). Failures are
 * counted per email and client address, and per client address over all emails (a higher bar:
 * several people may share one address). Past SIGN_IN_RATE_LIMIT failures, each further attempt
 * of that key must wait 2^(failures - limit) seconds after the last failure, at most
 * SIGN_IN_MAX_DELAY_SECONDS; attempts during the wait get 429 with Retry-After and are not
 * counted. The same email from another address is never slowed down, so nobody can lock the admin
 * out; a correct password clears its email + address count; counts are forgotten
 * SIGN_IN_RATE_WINDOW_SECONDS after the last failure.
 */
export function createSignInThrottle(db: Db, limits: Config['signInRateLimit']) {
  const counters = createCounters(db);
  const windowMs = limits.windowSeconds * 1000;

  function keysOf(email: string, clientIp: string | undefined) {
    const client = clientIp ?? 'unknown';
    const emailHash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
    return {
      account: { key: `sign-in-fail|${emailHash}|${client}`, free: limits.max },
      client: { key: `sign-in-fail-client|${client}`, free: limits.max * CLIENT_FAILURE_FACTOR },
    };
  }

  return {
    /** Throws RateLimitedError while this email or client must still wait after its failures. */
    async assertAllowed(email: string, clientIp: string | undefined): Promise<void> {
      const now = Date.now();
      const keys = keysOf(email, clientIp);
      for (const { key, free } of [keys.account, keys.client]) {
        const counter = await counters.findCounter(key);
        if (!counter || counter.count < free || counter.lastMs <= now - windowMs) continue;
        const delayMs = Math.min(2 ** (counter.count - free) * 1000, limits.maxDelaySeconds * 1000);
        const waitMs = counter.lastMs + delayMs - now;
        if (waitMs > 0) throw new RateLimitedError(waitMs / 1000, SIGN_IN_THROTTLED_MESSAGE);
      }
    },

    async recordFailure(email: string, clientIp: string | undefined): Promise<void> {
      const now = Date.now();
      const keys = keysOf(email, clientIp);
      await counters.bumpCounter(keys.account.key, windowMs, now);
      await counters.bumpCounter(keys.client.key, windowMs, now);
    },

    /** A correct password clears its email + address count. */
    async recordSuccess(email: string, clientIp: string | undefined): Promise<void> {
      await counters.deleteCounter(keysOf(email, clientIp).account.key);
    },
  };
}
