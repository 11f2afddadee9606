import { createHash } from 'node:crypto';
import type { Config } from '#server/config';
import type { Db } from '#server/db/client';
import { createCounters } from '#server/db/counters';
import { RateLimitedError } from '#server/lib/app-error';
import { clientKeysFor } from '#server/lib/client-ip';

/** The 429 of a throttled sign-in. */
export const SIGN_IN_THROTTLED_MESSAGE =
  'Too many failed sign-in attempts. Please wait a moment and try again.';

/** A client may fail this many times more often than one email from it. */
const CLIENT_FAILURE_FACTOR = 4;

/** An account's failures (from every client) are forgotten this long after the last one. */
export const ACCOUNT_FAILURE_WINDOW_MS = 24 * 3600 * 1000;

/** What the throttle asks of one sign-in attempt (past its email + client wait). */
export interface SignInState {
  /**
   * The client (its address, an IPv6 /64) failed so often over all emails that it must wait: it
   * is never refused a right password for that, but a device the account never signed in on
   * needs the mailed code (sign-in-guard.ts), so a guesser cannot tell a right password there.
   */
  clientSlowed: boolean;
  /** The account failed SIGN_IN_ACCOUNT_CODE_AFTER times from anywhere: new devices need a code. */
  accountGuarded: boolean;
}

/**
 * Failed sign-ins (OWASP authentication cheat sheet: throttle, never lock out). A client is its
 * address, an IPv6 address by its /64 (clientKeyOf). Failures are counted three ways:
 *
 * - per email and client: past SIGN_IN_RATE_LIMIT failures, each further attempt of that email
 *   from that client must wait 2^(failures - limit) seconds after the last failure, at most
 *   SIGN_IN_MAX_DELAY_SECONDS; attempts during the wait get 429 with Retry-After (counted only
 *   against the account). The same email from another client is never slowed down by it;
 * - per client over all emails (a higher bar: several people may share one address), and per
 *   IPv6 /56 at IPV6_NETWORK_LIMIT_MULTIPLIER times that: past it the client is slowed, which
 *   never refuses a right password (see SignInState.clientSlowed);
 * - per account over all clients (every failed attempt naming it, refused ones too), forgotten a
 *   day after the last: past SIGN_IN_ACCOUNT_CODE_AFTER, see SignInState.accountGuarded.
 *
 * A sign-in clears its email + client count and the account's count; the other counts are
 * forgotten SIGN_IN_RATE_WINDOW_SECONDS after the last failure.
 */
export function createSignInThrottle(db: Db, limits: Config['signInRateLimit'], networkMultiplier: number) {
  const counters = createCounters(db);
  const windowMs = limits.windowSeconds * 1000;

  function keysOf(email: string, clientIp: string | undefined) {
    const keys = clientKeysFor(clientIp);
    const client = keys?.key ?? 'unknown';
    const emailHash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
    const clientFree = limits.max * CLIENT_FAILURE_FACTOR;
    return {
      emailClient: { key: `sign-in-fail|${emailHash}|${client}`, free: limits.max },
      /** The client over all emails, and its IPv6 /56 at networkMultiplier times that. */
      clients: [
        { key: `sign-in-fail-client|${client}`, free: clientFree },
        ...(keys && keys.network !== keys.key
          ? [{ key: `sign-in-fail-network|${keys.network}`, free: clientFree * networkMultiplier }]
          : []),
      ],
      account: `sign-in-fail-account|${emailHash}`,
    };
  }

  /** How long the counter's key must still wait (ms; 0 or less: it need not). */
  async function waitOf(key: string, free: number, now: number): Promise<number> {
    const counter = await counters.findCounter(key);
    if (!counter || counter.count < free || counter.lastMs <= now - windowMs) return 0;
    const delayMs = Math.min(2 ** (counter.count - free) * 1000, limits.maxDelaySeconds * 1000);
    return counter.lastMs + delayMs - now;
  }

  return {
    /**
     * Throws RateLimitedError while this email must still wait after its failures from this
     * client (the attempt is counted against the account); otherwise says what else it needs.
     */
    async check(email: string, clientIp: string | undefined): Promise<SignInState> {
      const now = Date.now();
      const keys = keysOf(email, clientIp);
      const waitMs = await waitOf(keys.emailClient.key, keys.emailClient.free, now);
      if (waitMs > 0) {
        await counters.bumpCounter(keys.account, ACCOUNT_FAILURE_WINDOW_MS, now);
        throw new RateLimitedError(waitMs / 1000, SIGN_IN_THROTTLED_MESSAGE);
      }
      const account = await counters.findCounter(keys.account);
      let clientSlowed = false;
      for (const { key, free } of keys.clients) clientSlowed ||= (await waitOf(key, free, now)) > 0;
      return {
        clientSlowed,
        accountGuarded:
          account !== null &&
          account.count >= limits.accountCodeAfter &&
          account.lastMs > now - ACCOUNT_FAILURE_WINDOW_MS,
      };
    },

    async recordFailure(email: string, clientIp: string | undefined): Promise<void> {
      const now = Date.now();
      const keys = keysOf(email, clientIp);
      await counters.bumpCounter(keys.emailClient.key, windowMs, now);
      for (const { key } of keys.clients) await counters.bumpCounter(key, windowMs, now);
      await counters.bumpCounter(keys.account, ACCOUNT_FAILURE_WINDOW_MS, now);
    },

    /** A sign-in clears its email + client count and the account's count. */
    async recordSuccess(email: string, clientIp: string | undefined): Promise<void> {
      const keys = keysOf(email, clientIp);
      await counters.deleteCounter(keys.emailClient.key);
      await counters.deleteCounter(keys.account);
    },
  };
}
