import type { Config } from '#server/config';
import type { Db } from '#server/db/client';
import { clientKeysFor } from '#server/lib/client-ip';
import { consumeClientLimit } from '#server/lib/client-limits';
import { createRateLimiter, type RateLimitRule } from '#server/db/rate-limiter';
import { createAuthRepository } from './auth.repository';
import { createDeviceCookies } from './device-cookie';

/** Who asks for a password-reset mail. */
export interface ResetRequester {
  clientIp: string | undefined;
  /** The request's headers (its device cookie). */
  headers: Headers;
  /** The signed-in user of the request, if any. */
  userId: string | null;
}

/**
 * Reset mails one client (an IPv6 /64) may ask for, whatever the addresses; its network (an IPv6
 * /56) IPV6_NETWORK_LIMIT_MULTIPLIER times as many.
 */
export const RESET_PER_CLIENT: RateLimitRule = { max: 5, windowSeconds: 600 };
/** Reset mails to one address from everyone but its owner's devices: a ceiling against mail-bombing. */
export const RESET_PER_ADDRESS: RateLimitRule = { max: 10, windowSeconds: 3600 };
/** Reset mails the owner's own devices may ask for (only the owner fills it). */
export const RESET_PER_OWNER: RateLimitRule = { max: 10, windowSeconds: 600 };

/**
 * The limits of password-reset mail (auth-email.ts `requestPasswordReset`). A requester is
 * limited per client and network (lib/client-limits.ts), never per victim: others' requests never
 * use up the owner's. The owner's devices (signed in to the account, or signed in on it within
 * DEVICE_COOKIE_DAYS: device-cookie.ts) count only against themselves; everyone else also shares
 * a generous ceiling per address, so that many clients together cannot bomb a mailbox.
 */
export function createPasswordResetLimits(db: Db, config: Config) {
  const limiter = createRateLimiter(db);
  const repo = createAuthRepository(db);
  const devices = createDeviceCookies({ secret: config.authSecret, secure: config.secureCookies });

  return {
    /** Throws RateLimitedError (with `message`) when this requester may not ask for `address` now. */
    async admit(address: string, requester: ResetRequester, message: string): Promise<void> {
      const owner = await ownerOf(address, requester);
      if (owner) {
        await limiter.consume('reset-password-owner', owner, RESET_PER_OWNER, message);
        return;
      }
      const client = clientKeysFor(requester.clientIp);
      if (client) {
        const multiplier = config.networkLimitMultiplier;
        await consumeClientLimit(
          limiter,
          'reset-password-client',
          client,
          RESET_PER_CLIENT,
          multiplier,
          message,
        );
      }
      await limiter.consume('reset-password-address', address, RESET_PER_ADDRESS, message);
    },
  };

  /** The account's id when the request comes from one of its owner's devices. */
  async function ownerOf(address: string, requester: ResetRequester): Promise<string | null> {
    const deviceAccounts = devices.accountsOf(requester.headers);
    if (!requester.userId && deviceAccounts.length === 0) return null;
    const account = await repo.findUserByEmail(address);
    if (!account) return null;
    return account.id === requester.userId || deviceAccounts.includes(account.id) ? account.id : null;
  }
}
