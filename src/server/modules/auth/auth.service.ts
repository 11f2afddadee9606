import { createHash, randomUUID } from 'node:crypto';
import {
  hash as argon2Hash,
  verify as argon2Verify,
  type Algorithm,
  type Options as Argon2Options,
} from '@node-rs/argon2';
import { betterAuth } from 'better-auth';
import { z } from 'zod';
import {
  EmailSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PasswordSchema,
  RoleSchema,
  type AuthUserResponse,
  type MeResponse,
  type Role,
  type SessionUser,
  type SignInInput,
  type SignOutResponse,
  type SignUpInput,
} from '../../../common/schemas/auth';
import type { Config } from '../../config';
import type { Database, Db } from '../../db/client';
import { AppError, RateLimitedError } from '../../lib/app-error';
import type { Logger } from '../../lib/logger';
import { validationError } from '../../lib/validate';
import { createAuthRepository, UniqueViolationError } from './auth.repository';
import { assertUncommonPassword } from './password-policy';

/**
 * Accounts on better-auth (email + password, server-side sessions in PostgreSQL), wrapped so that
 * the rest of the server sees only our contract: SessionUser, AppError codes, Set-Cookie strings.
 *
 * - Passwords: argon2id (OWASP: m=19456 KiB, t=2, p=1) through `emailAndPassword.password`.
 * - Sessions: a signed, httpOnly, SameSite=Lax, Path=/ cookie (Secure when PUBLIC_URL is https)
 *   naming a row of `sessions`. better-auth extends a session when it is used (idle expiry,
 *   SESSION_IDLE_DAYS); we refuse and delete one older than SESSION_MAX_AGE_DAYS (absolute cap).
 * - Sign-up is rate limited per client IP by better-auth's limiter; sign-in is throttled by failure
 *   counters per email and client (see `assertSignInAllowed`). Both count in the database, so
 *   the limits hold across instances.
 * - Passwords on a list of common ones are refused (password-policy.ts).
 */

/** OWASP password storage cheat sheet, argon2id minimum: 19 MiB, 2 passes, 1 lane. */
const ARGON2ID: Algorithm = 2;
const ARGON2_OPTIONS: Argon2Options = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2_OPTIONS);
}

/**
 * The account a shopper asked for at checkout, created with the order, in the caller's
 * transaction, from the password hash kept on the payment. An email that already has an account is
 * left untouched ('existing').
 */
export async function createCustomerAccount(
  db: Db,
  email: string,
  passwordHash: string,
): Promise<{ outcome: 'created'; userId: string } | { outcome: 'existing' }> {
  const created = await createAuthRepository(db).insertCustomerIfAbsent(
    email.trim().toLowerCase(),
    passwordHash,
  );
  return created ? { outcome: 'created', userId: created.id } : { outcome: 'existing' };
}

async function verifyPasswordHash(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(hash, password);
  } catch {
    // A malformed or foreign hash never matches.
    return false;
  }
}

/**
 * Header carrying the client IP from our routes to better-auth (its limiter keys on it and it is
 * stored in sessions.ip_address). Set only by the server: any copy sent by a client is removed.
 */
export const CLIENT_IP_HEADER = 'x-shop-client-ip';

/** The 429 of a throttled sign-in. */
export const SIGN_IN_THROTTLED_MESSAGE =
  'Too many failed sign-in attempts. Please wait a moment and try again.';

/** rate_limits rows untouched this long are deleted (longer than any configurable window). */
export const RATE_LIMIT_RETENTION_MS = 86_400_000 + 60_000;

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

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

/** What a route needs from the incoming request. */
export interface AuthRequestContext {
  headers: Headers;
  /** The client's IP as the server determined it (see auth.routes.ts), if known. */
  clientIp: string | undefined;
}

/** A response body plus the Set-Cookie header values the route must send with it. */
export interface AuthResult<T> {
  body: T;
  setCookies: string[];
}

export interface CreateUserInput {
  email: string;
  password: string;
  name?: string;
  role?: Role;
}

export interface AuthService {
  /** The signed-in user of a request, or null (no, invalid, expired or too old session). */
  getSessionUser(headers: Headers): Promise<SessionUser | null>;
  /** better-auth's own handler (not mounted: our routes expose only the endpoints we support). */
  handler(request: Request): Promise<Response>;
  signUp(input: SignUpInput, request: AuthRequestContext): Promise<AuthResult<AuthUserResponse>>;
  signIn(input: SignInInput, request: AuthRequestContext): Promise<AuthResult<AuthUserResponse>>;
  signOut(request: AuthRequestContext): Promise<AuthResult<SignOutResponse>>;
  /** The current user, refreshing (or clearing) the session cookie as needed. */
  me(headers: Headers): Promise<AuthResult<MeResponse>>;
  /** A user with an email + password account; 409 CONFLICT when the email is taken. */
  createUser(input: CreateUserInput): Promise<SessionUser>;
  setPassword(userId: string, password: string): Promise<void>;
  verifyPassword(userId: string, password: string): Promise<boolean>;
  setRole(userId: string, role: Role): Promise<void>;
  /**
   * Counts one request of `subject` (a client IP, say) in the fixed window of `scope`, kept in
   * rate_limits so that the limit holds across instances; past `max` it throws RateLimitedError
   * with `message` and the seconds left in the window.
   */
  consumeRateLimit(scope: string, subject: string, rule: RateLimitRule, message?: string): Promise<void>;
  /** Deletes rate-limit counters nobody has touched for a day (the sweeper calls it). */
  deleteExpiredRateLimits(now?: Date): Promise<number>;
  /** Signs the user out everywhere. */
  revokeSessions(userId: string): Promise<number>;
  findUserByEmail(email: string): Promise<SessionUser | null>;
  findUserById(id: string): Promise<SessionUser | null>;
  hasAdmin(): Promise<boolean>;
}

export interface CreateAuthServiceOptions {
  config: Config;
  database: Database;
  logger: Logger;
}

interface AuthUserLike {
  id: string;
  email: string;
  name?: string | null;
  role?: unknown;
}

function toSessionUser(user: AuthUserLike): SessionUser {
  const role = RoleSchema.safeParse(user.role);
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? '',
    role: role.success ? role.data : 'customer',
  };
}

const timestampFields = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

export function createAuthService({ config, database, logger }: CreateAuthServiceOptions): AuthService {
  const repo = createAuthRepository(database.db);
  const log = logger.child({ module: 'auth' });
  const maxAgeMs = config.session.maxAgeSeconds * 1000;
  const sessionExpiresIn = Math.min(config.session.idleSeconds, config.session.maxAgeSeconds);
  const signUpRule = { window: config.signUpRateLimit.windowSeconds, max: config.signUpRateLimit.max };
  const publicOrigin = new URL(config.publicUrl).origin;

  const auth = betterAuth({
    appName: 'Aelo',
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
        log[level](
          { component: 'better-auth', ...(err ? { err } : {}), ...(rest.length ? { args: rest } : {}) },
          message,
        );
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      requireEmailVerification: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: {
        hash: hashPassword,
        verify: ({ hash, password }) => verifyPasswordHash(hash, password),
      },
    },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', ...timestampFields },
      additionalFields: {
        // Set by the server only (admin bootstrap, back office): never accepted from a request.
        role: { type: 'string', required: false, defaultValue: 'customer', input: false },
      },
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
      },
    },
    advanced: {
      cookiePrefix: 'shop',
      useSecureCookies: config.secureCookies,
      // better-auth turns its origin checks off under NODE_ENV=test: keep them on everywhere.
      disableCSRFCheck: false,
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => randomUUID() },
    },
  });

  // --- helpers ---------------------------------------------------------------------------------

  const authPath = (path: string) => new URL(`/api/auth${path}`, publicOrigin).toString();

  /** A fresh request to better-auth carrying only the headers it needs and our client IP. */
  function forwardRequest(path: string, request: AuthRequestContext, body: unknown): Request {
    const headers = new Headers({ 'content-type': 'application/json' });
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    if (request.clientIp) headers.set(CLIENT_IP_HEADER, request.clientIp);
    return new Request(authPath(path), { method: 'POST', headers, body: JSON.stringify(body) });
  }

  function withoutClientIp(headers: Headers): Headers {
    if (!headers.has(CLIENT_IP_HEADER)) return headers;
    const copy = new Headers(headers);
    copy.delete(CLIENT_IP_HEADER);
    return copy;
  }

  async function readJson(res: Response): Promise<unknown> {
    try {
      return await res.json();
    } catch {
      return null;
    }
  }

  const AuthErrorBodySchema = z.object({ code: z.string().optional() });
  const AuthUserBodySchema = z.object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullish(), role: z.unknown() }),
  });

  /** Maps a better-auth error response to our error model; its body never reaches the client. */
  async function toAppError(
    res: Response,
    operation: 'sign-up' | 'sign-in' | 'sign-out',
    email?: string,
  ): Promise<AppError> {
    const parsed = AuthErrorBodySchema.safeParse(await readJson(res));
    const code = parsed.success ? (parsed.data.code ?? '') : '';
    switch (res.status) {
      case 429:
        return new RateLimitedError(
          Number(res.headers.get('x-retry-after')) || config.signUpRateLimit.windowSeconds,
        );
      case 401:
        return new AppError('UNAUTHENTICATED', INVALID_CREDENTIALS_MESSAGE);
      case 403:
        return new AppError('CSRF_REJECTED', 'Cross-site request refused');
      case 400:
        if (code.includes('EMAIL')) {
          return new AppError('VALIDATION_FAILED', 'email: Please enter a valid email address', {
            email: 'Please enter a valid email address',
          });
        }
        if (code.includes('PASSWORD')) {
          const message = `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`;
          return new AppError('VALIDATION_FAILED', `password: ${message}`, { password: message });
        }
        break;
      case 422:
        // Email taken (or lost a race for it: the unique index decided).
        if (operation === 'sign-up' && email && (await repo.findUserByEmail(email))) {
          return new AppError('CONFLICT', DUPLICATE_EMAIL_MESSAGE);
        }
        break;
    }
    log.error({ operation, status: res.status, code }, 'unexpected better-auth response');
    return new AppError('INTERNAL', 'Internal server error');
  }

  async function parseUserResponse(res: Response): Promise<AuthResult<AuthUserResponse>> {
    const parsed = AuthUserBodySchema.safeParse(await readJson(res));
    if (!parsed.success) {
      log.error({ status: res.status }, 'better-auth returned no user');
      throw new AppError('INTERNAL', 'Internal server error');
    }
    return { body: { user: toSessionUser(parsed.data.user) }, setCookies: res.headers.getSetCookie() };
  }

  async function clearSessionCookies(): Promise<string[]> {
    const ctx = await auth.$context;
    return [ctx.authCookies.sessionToken, ctx.authCookies.sessionData, ctx.authCookies.dontRememberToken].map(
      (cookie) =>
        `${cookie.name}=; Max-Age=0; Path=${cookie.attributes.path ?? '/'}; HttpOnly; SameSite=Lax${
          cookie.attributes.secure ? '; Secure' : ''
        }`,
    );
  }

  const isPastMaxAge = (createdAt: Date) => createdAt.getTime() + maxAgeMs <= Date.now();

  /**
   * The session behind the request's cookie. better-auth checks the signature and idle expiry (and
   * extends the session on use); we add the absolute cap, deleting a session that outlived it.
   */
  async function readSession(headers: Headers, returnHeaders: boolean) {
    let result: { user: SessionUser | null; headers: Headers | null; capped: boolean };
    try {
      if (returnHeaders) {
        const { headers: resHeaders, response } = await auth.api.getSession({
          headers: withoutClientIp(headers),
          returnHeaders: true,
        });
        result = { user: null, headers: resHeaders, capped: false };
        if (!response) return result;
        if (isPastMaxAge(new Date(response.session.createdAt))) {
          await repo.deleteSessionById(response.session.id);
          return { ...result, capped: true };
        }
        return { ...result, user: toSessionUser(response.user) };
      }
      const session = await auth.api.getSession({ headers: withoutClientIp(headers) });
      if (!session) return { user: null, headers: null, capped: false };
      if (isPastMaxAge(new Date(session.session.createdAt))) {
        await repo.deleteSessionById(session.session.id);
        return { user: null, headers: null, capped: true };
      }
      return { user: toSessionUser(session.user), headers: null, capped: false };
    } catch (err) {
      // better-auth throws APIError (e.g. the session vanished while being refreshed): no session.
      if (err instanceof Error && err.name === 'APIError')
        return { user: null, headers: null, capped: false };
      throw err;
    }
  }

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
  const CLIENT_FAILURE_FACTOR = 4;
  function signInKeys(email: string, clientIp: string | undefined) {
    const client = clientIp ?? 'unknown';
    const emailHash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
    return {
      account: { key: `sign-in-fail|${emailHash}|${client}`, free: config.signInRateLimit.max },
      client: {
        key: `sign-in-fail-client|${client}`,
        free: config.signInRateLimit.max * CLIENT_FAILURE_FACTOR,
      },
    };
  }

  async function assertSignInAllowed(keys: ReturnType<typeof signInKeys>): Promise<void> {
    const now = Date.now();
    const windowMs = config.signInRateLimit.windowSeconds * 1000;
    for (const { key, free } of [keys.account, keys.client]) {
      const counter = await repo.findCounter(key);
      if (!counter || counter.count < free || counter.lastMs <= now - windowMs) continue;
      const delayMs = Math.min(
        2 ** (counter.count - free) * 1000,
        config.signInRateLimit.maxDelaySeconds * 1000,
      );
      const waitMs = counter.lastMs + delayMs - now;
      if (waitMs > 0) throw new RateLimitedError(waitMs / 1000, SIGN_IN_THROTTLED_MESSAGE);
    }
  }

  async function recordSignInFailure(keys: ReturnType<typeof signInKeys>): Promise<void> {
    const now = Date.now();
    const windowMs = config.signInRateLimit.windowSeconds * 1000;
    await repo.bumpCounter(keys.account.key, windowMs, now);
    await repo.bumpCounter(keys.client.key, windowMs, now);
  }

  async function consumeRateLimit(
    scope: string,
    subject: string,
    rule: RateLimitRule,
    message?: string,
  ): Promise<void> {
    const windowMs = rule.windowSeconds * 1000;
    const now = Date.now();
    const { count, windowStartMs } = await repo.hitFixedWindow(`${scope}|${subject}`, windowMs, now);
    if (count > rule.max) throw new RateLimitedError((windowStartMs + windowMs - now) / 1000, message);
  }

  function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> {
    const parsed = z.object({ [field]: schema }).safeParse({ [field]: value });
    if (!parsed.success) throw validationError(parsed.error);
    return (parsed.data as Record<string, z.output<S>>)[field] as z.output<S>;
  }

  // --- the service -----------------------------------------------------------------------------

  return {
    async getSessionUser(headers) {
      if (!headers.get('cookie')) return null;
      return (await readSession(headers, false)).user;
    },

    handler(request) {
      if (!request.headers.has(CLIENT_IP_HEADER)) return auth.handler(request);
      return auth.handler(new Request(request, { headers: withoutClientIp(request.headers) }));
    },

    async signUp(input, request) {
      assertUncommonPassword(input.password);
      const res = await auth.handler(
        forwardRequest('/sign-up/email', request, {
          email: input.email,
          password: input.password,
          name: input.name ?? '',
        }),
      );
      if (!res.ok) throw await toAppError(res, 'sign-up', input.email);
      return parseUserResponse(res);
    },

    async signIn(input, request) {
      const keys = signInKeys(input.email, request.clientIp);
      await assertSignInAllowed(keys);
      const res = await auth.handler(
        forwardRequest('/sign-in/email', request, { email: input.email, password: input.password }),
      );
      if (!res.ok) {
        if (res.status === 401) await recordSignInFailure(keys);
        throw await toAppError(res, 'sign-in');
      }
      await repo.deleteCounter(keys.account.key);
      return parseUserResponse(res);
    },

    async deleteExpiredRateLimits(now = new Date()) {
      // Every window (ours and better-auth's) is at most a day: older counters count for nothing.
      return repo.deleteCountersBefore(now.getTime() - RATE_LIMIT_RETENTION_MS);
    },

    async signOut(request) {
      // better-auth deletes the session row named by the cookie and expires the cookie.
      const res = await auth.handler(forwardRequest('/sign-out', request, {}));
      if (res.status === 403) throw await toAppError(res, 'sign-out');
      const setCookies = res.ok ? res.headers.getSetCookie() : [];
      if (!res.ok)
        log.warn({ status: res.status }, 'better-auth sign-out failed; clearing the cookie anyway');
      return {
        body: { ok: true },
        setCookies: setCookies.length > 0 ? setCookies : await clearSessionCookies(),
      };
    },

    async me(headers) {
      if (!headers.get('cookie')) return { body: { user: null }, setCookies: [] };
      const session = await readSession(headers, true);
      if (session.capped) return { body: { user: null }, setCookies: await clearSessionCookies() };
      return { body: { user: session.user }, setCookies: session.headers?.getSetCookie() ?? [] };
    },

    async createUser(input) {
      const email = parseOrThrow(EmailSchema, input.email, 'email');
      const password = parseOrThrow(PasswordSchema, input.password, 'password');
      assertUncommonPassword(password);
      const name = (input.name ?? '').trim().slice(0, 100);
      try {
        const row = await repo.insertUserWithPassword({
          id: randomUUID(),
          email,
          name,
          role: input.role ?? 'customer',
          passwordHash: await hashPassword(password),
        });
        return toSessionUser(row);
      } catch (err) {
        if (err instanceof UniqueViolationError) throw new AppError('CONFLICT', DUPLICATE_EMAIL_MESSAGE);
        throw err;
      }
    },

    async setPassword(userId, password) {
      const valid = parseOrThrow(PasswordSchema, password, 'password');
      assertUncommonPassword(valid);
      if (!(await repo.findUserById(userId))) throw new AppError('NOT_FOUND', 'User not found');
      await repo.upsertPasswordHash(userId, await hashPassword(valid));
    },

    async verifyPassword(userId, password) {
      const hash = await repo.findPasswordHash(userId);
      return hash !== null && (await verifyPasswordHash(hash, password));
    },

    async setRole(userId, role) {
      if (!(await repo.updateRole(userId, RoleSchema.parse(role))))
        throw new AppError('NOT_FOUND', 'User not found');
    },

    revokeSessions(userId) {
      return repo.deleteSessionsOfUser(userId);
    },

    consumeRateLimit,

    async findUserByEmail(email) {
      const row = await repo.findUserByEmail(email.trim().toLowerCase());
      return row ? toSessionUser(row) : null;
    },

    async findUserById(id) {
      const row = await repo.findUserById(id);
      return row ? toSessionUser(row) : null;
    },

    hasAdmin() {
      return repo.existsAdmin();
    },
  };
}
