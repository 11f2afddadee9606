import { randomUUID } from 'node:crypto';
import {
  hash as argon2Hash,
  verify as argon2Verify,
  type Algorithm,
  type Options as Argon2Options,
} from '@node-rs/argon2';
import { betterAuth } from 'better-auth';
import { twoFactor } from 'better-auth/plugins';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, RoleSchema, type SessionUser } from '#common/schemas/auth';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { isDatabaseUnavailable } from '#server/db/errors';
import { IPV6_CLIENT_PREFIX } from '#server/lib/client-ip';
import type { Logger } from '#server/lib/logger';

/**
 * better-auth's configuration: email + password accounts, server-side sessions in our tables
 * (snake_case columns), its rate limiter on sign-up only, origin checks on everywhere. The auth
 * service (auth.service.ts) wraps the instance so the rest of the server never sees it.
 */

/**
 * Header carrying the client IP from our routes to better-auth (its limiter keys on it and it is
 * stored in sessions.ip_address). Set only by the server: any copy sent by a client is removed.
 */
export const CLIENT_IP_HEADER = 'x-shop-client-ip';

const ARGON2ID: Algorithm = 2;

/**
 * better-auth's cookies are named `shop.<name>` (`__Secure-shop.<name>` over https): the session,
 * the two-factor step. A request carrying none has no session (the page cache serves it).
 */
export const AUTH_COOKIE_PREFIX = 'shop';

/** OWASP password storage cheat sheet, argon2id minimum: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OWASP: Argon2Options = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * Under NODE_ENV=test only (config.passwordHashCost 'test'): argon2id at its cheapest, so a suite
 * that creates hundreds of accounts does not spend minutes hashing. A hash records its own
 * parameters, so verification works across both.
 */
export const ARGON2_TEST: Argon2Options = {
  algorithm: ARGON2ID,
  memoryCost: 64,
  timeCost: 1,
  parallelism: 1,
};

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a malformed or foreign hash. */
  verify(hash: string, password: string): Promise<boolean>;
}

export function createPasswordHasher(cost: Config['passwordHashCost']): PasswordHasher {
  const options = cost === 'test' ? ARGON2_TEST : ARGON2_OWASP;
  return {
    hash: (password) => argon2Hash(password, options),
    async verify(hash, password) {
      try {
        return await argon2Verify(hash, password);
      } catch {
        // A malformed or foreign hash never matches.
        return false;
      }
    },
  };
}

const timestampFields = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

export interface CreateBetterAuthOptions {
  config: Config;
  database: Database;
  log: Logger;
  passwords: PasswordHasher;
  /** Mails better-auth's verification and reset tokens (links to the shop's own pages). */
  mailer: {
    /** Also the link to a new address (`changeEmail`'s token, which names it in `updateTo`). */
    verification(user: { email: string; createdAt: Date }, token: string): Promise<void>;
    reset(user: { email: string }, token: string): Promise<void>;
    /** A sign-up named an address that has an account (answered as for a new one). */
    signUpWithExistingEmail(user: {
      id: string;
      email: string;
      emailVerified: boolean;
      createdAt: Date;
    }): Promise<void>;
  };
}

export function createBetterAuth({ config, database, log, passwords, mailer }: CreateBetterAuthOptions) {
  const publicOrigin = new URL(config.publicUrl).origin;
  const sessionExpiresIn = Math.min(config.session.idleSeconds, config.session.maxAgeSeconds);
  const signUpRule = { window: config.signUpRateLimit.windowSeconds, max: config.signUpRateLimit.max };
  return betterAuth({
    appName: config.shopName,
    baseURL: publicOrigin,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    telemetry: { enabled: false },
    database: { db: database.db, type: 'postgres', transaction: true },
    logger: {
      level: 'debug',
      log: (level, message, ...args) => {
        const err = args.find((a): a is Error => a instanceof Error);
        const rest = args.filter((a) => !(a instanceof Error));
        // The database out of reach is an outage the request reports as 503, not a fault of auth.
        if (level === 'error' && isDatabaseUnavailable(err)) level = 'warn';
        log[level](
          { component: 'better-auth', ...(err ? { err } : {}), ...(rest.length ? { args: rest } : {}) },
          message,
        );
      },
    },
    emailAndPassword: {
      enabled: true,
      // Sign-up never signs in, so it can answer the same whether or not the address has an
      // account (better-auth then answers a taken one with a stand-in user and calls
      // onExistingUserSignUp). The browser signs in next with the same password. An unconfirmed
      // account may sign in: guest orders are matched to it only once its address is confirmed,
      // and confirming ends every earlier session (auth-email.ts).
      autoSignIn: false,
      onExistingUserSignUp: ({ user }) => mailer.signUpWithExistingEmail(user),
      requireEmailVerification: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: {
        hash: (password) => passwords.hash(password),
        verify: ({ hash, password }) => passwords.verify(hash, password),
      },
      // A reset link works once, for an hour, and signs the account out everywhere.
      sendResetPassword: ({ user, token }) => mailer.reset(user, token),
      resetPasswordTokenExpiresIn: 3600,
      revokeSessionsOnPasswordReset: true,
    },
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: 24 * 3600, // VERIFICATION_TTL_SECONDS (auth-email.ts)
      sendVerificationEmail: ({ user, token }) => mailer.verification(user, token),
    },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', ...timestampFields },
      additionalFields: {
        // Set by the server only (admin bootstrap, back office): never accepted from a request.
        role: { type: 'string', required: false, defaultValue: 'customer', input: false },
      },
      // A new address gets a link (sendVerificationEmail) and changes once it is opened
      // (auth-email-change.ts); never without it, even for an unconfirmed account.
      changeEmail: { enabled: true, updateEmailWithoutVerification: false },
    },
    session: {
      modelName: 'sessions',
      fields: {
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
        ...timestampFields,
      },
      // Idle expiry: a session not used for this long expires; each use (at most once per
      // updateAge) pushes expires_at forward. The absolute cap is enforced in readSession().
      expiresIn: sessionExpiresIn,
      updateAge: Math.min(86_400, Math.floor(sessionExpiresIn / 2)),
      // Listing the devices (listSessions) works for any live session, as it did before it went
      // through better-auth (its default asks for one made within a day); the cap is ours.
      freshAge: 0,
      cookieCache: { enabled: false },
    },
    account: {
      modelName: 'accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        ...timestampFields,
      },
      accountLinking: { enabled: false },
    },
    verification: {
      modelName: 'verifications',
      fields: { expiresAt: 'expires_at', ...timestampFields },
    },
    rateLimit: {
      // Off outside production by default: on everywhere, in the database (shared by instances).
      enabled: true,
      storage: 'database',
      modelName: 'rate_limits',
      fields: { lastRequest: 'last_request' },
      window: 10,
      max: 100,
      customRules: {
        // Sign-in is throttled by the shop's failure counters (below), never by attempts: a
        // per-IP count of all attempts let anyone lock the admin out with wrong passwords.
        '/sign-in/email': false,
        '/sign-up/email': signUpRule,
        '/sign-out': false,
        '/get-session': false,
        // Codes: 10 a minute per address and step (the plugin's 3 per 10 s tripped over a user's
        // own confirm-then-disable); wrong codes also lock the account's two-factor for a while.
        '/two-factor/*': { window: 60, max: 10 },
      },
    },
    plugins: [
      // TOTP with backup codes; enabled only once a code from the app is confirmed.
      twoFactor({
        issuer: config.shopName,
        schema: {
          user: { fields: { twoFactorEnabled: 'two_factor_enabled' } },
          twoFactor: {
            modelName: 'two_factors',
            fields: {
              backupCodes: 'backup_codes',
              userId: 'user_id',
              failedVerificationCount: 'failed_verification_count',
              lockedUntil: 'locked_until',
            },
          },
        },
      }),
    ],
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: config.secureCookies,
      // better-auth turns its origin checks off under NODE_ENV=test: keep them on everywhere.
      disableCSRFCheck: false,
      disableOriginCheck: false,
      // Its rate limits (sign-up, two-factor codes) count an IPv6 client by its /64, as the shop's do.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: IPV6_CLIENT_PREFIX },
      database: { generateId: () => randomUUID() },
    },
  });
}

export type BetterAuth = ReturnType<typeof createBetterAuth>;

/** Request headers better-auth may look at; nothing else from the client reaches it. */
const FORWARDED_HEADERS = [
  'cookie',
  'origin',
  'referer',
  'user-agent',
  'sec-fetch-site',
  'sec-fetch-mode',
  'sec-fetch-dest',
];

/** What a route passes on from the incoming request. */
export interface ForwardedRequest {
  headers: Headers;
  clientIp: string | undefined;
  /** The origin the request was made to (`c.var.requestOrigin`), if known. */
  requestOrigin?: string | undefined;
}

/**
 * A fresh request to better-auth's handler carrying only the headers it needs and our client IP.
 * Sign-up, sign-in and sign-out go through the handler rather than `auth.api.*`: better-auth runs
 * its rate limiter (sign-up's per-address limit) only for requests that pass its router.
 */
export function forwardRequest(
  publicOrigin: string,
  path: string,
  request: ForwardedRequest,
  body: unknown,
): Request {
  const headers = new Headers({ 'content-type': 'application/json' });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (request.clientIp) headers.set(CLIENT_IP_HEADER, request.clientIp);
  // A write from the address the shop was opened at (http://127.0.0.1:3000, a LAN address) has
  // passed the API's CSRF check as the shop's own (lib/csrf.ts); better-auth, which knows only
  // PUBLIC_URL and TRUSTED_ORIGINS, gets it as coming from PUBLIC_URL, as this request's URL does.
  if (request.requestOrigin && headers.get('origin') === request.requestOrigin) {
    headers.set('origin', publicOrigin);
  }
  const url = new URL(`/api/auth${path}`, publicOrigin).toString();
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** The request's headers without a client's copy of our client-IP header. */
export function withoutClientIp(headers: Headers): Headers {
  if (!headers.has(CLIENT_IP_HEADER)) return headers;
  const copy = new Headers(headers);
  copy.delete(CLIENT_IP_HEADER);
  return copy;
}

/** A response's JSON body, or null when it has none. */
export async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

interface AuthUserLike {
  id: string;
  email: string;
  name?: string | null;
  role?: unknown;
}

/** better-auth's user as our SessionUser (an unknown role reads as customer). */
export function toSessionUser(user: AuthUserLike): SessionUser {
  const role = RoleSchema.safeParse(user.role);
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? '',
    role: role.success ? role.data : 'customer',
  };
}
