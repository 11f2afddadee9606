import { randomUUID } from 'node:crypto';
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
  type SignOutResponse,
} from '#common/schemas/auth';
import type { Config } from '#server/config';
import type { Database, Db } from '#server/db/client';
import { isDatabaseUnavailable } from '#server/db/errors';
import { AppError, RateLimitedError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { validationError } from '#server/lib/validate';
import { createAuthRepository, UniqueViolationError } from './auth.repository';
import type { AuthRequestContext, AuthResult, CreateUserInput } from './auth.types';
import {
  createBetterAuth,
  createPasswordHasher,
  forwardRequest,
  readJson,
  toSessionUser,
  withoutClientIp,
} from './better-auth';
import type { MailService } from '../mail/mail.service';
import { authMailer, createEmailFlows, type EmailFlows } from './auth-email';
import { createTwoFactorFlows, type TwoFactorFlows } from './auth-two-factor';
import { createSessionFlows, type SessionFlows } from './auth-sessions';
import { createEmailChangeFlows, type EmailChangeFlows } from './auth-email-change';
import { assertUncommonPassword } from './password-policy';
import { createSignInGuard } from './sign-in-guard';
import { createCredentialFlows, type CredentialFlows } from './auth-credentials';
import { createAccountChangeLimit } from './account-change-limit';
import { createRateLimiter, RATE_LIMIT_RETENTION_MS } from '#server/db/rate-limiter';

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
 * - Sign-up never signs in and answers the same whether or not the address has an account (its
 *   owner is mailed instead); new passwords must score 3 or more with zxcvbn (password-policy.ts).
 */

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

export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

export interface AuthService
  extends EmailFlows, EmailChangeFlows, TwoFactorFlows, SessionFlows, CredentialFlows {
  /** The signed-in user of a request, or null (no, invalid, expired or too old session). */
  getSessionUser(headers: Headers): Promise<SessionUser | null>;
  signOut(request: AuthRequestContext): Promise<AuthResult<SignOutResponse>>;
  /** The current user, refreshing (or clearing) the session cookie as needed. */
  me(headers: Headers): Promise<AuthResult<MeResponse>>;
  /** A user with an email + password account; 409 CONFLICT when the email is taken. */
  createUser(input: CreateUserInput): Promise<SessionUser>;
  setPassword(userId: string, password: string): Promise<void>;
  verifyPassword(userId: string, password: string): Promise<boolean>;
  setRole(userId: string, role: Role): Promise<void>;
  /** A password hash with the configured argon2id cost (checkout keeps one on the payment). */
  hashPassword(password: string): Promise<string>;
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
  mail: MailService;
}

export function createAuthService({ config, database, logger, mail }: CreateAuthServiceOptions): AuthService {
  const repo = createAuthRepository(database.db);
  const log = logger.child({ module: 'auth' });
  const passwords = createPasswordHasher(config.passwordHashCost);
  const maxAgeMs = config.session.maxAgeSeconds * 1000;
  const publicOrigin = new URL(config.publicUrl).origin;

  const mailer = authMailer(mail, publicOrigin, config.authSecret);
  const auth = createBetterAuth({ config, database, log, passwords, mailer });
  const emailFlows = createEmailFlows({ auth, config, database, log, passwords });

  // --- helpers ---------------------------------------------------------------------------------

  const AuthErrorBodySchema = z.object({ code: z.string().optional() });
  const AuthUserBodySchema = z.object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullish(), role: z.unknown() }),
  });

  /** Maps a better-auth error response to our error model; its body never reaches the client. */
  async function toAppError(res: Response, operation: 'sign-up' | 'sign-in' | 'sign-out'): Promise<AppError> {
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
      // better-auth throws APIError (e.g. the session vanished while being refreshed): no session;
      // unless the database could not be read (its cause): that is a 503, not a signed-out visitor.
      if (err instanceof Error && err.name === 'APIError' && !isDatabaseUnavailable(err))
        return { user: null, headers: null, capped: false };
      throw err;
    }
  }

  function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> {
    const parsed = z.object({ [field]: schema }).safeParse({ [field]: value });
    if (!parsed.success) throw validationError(parsed.error);
    return (parsed.data as Record<string, z.output<S>>)[field] as z.output<S>;
  }

  // --- the service -----------------------------------------------------------------------------

  // One limiter for the changes made with the password (account-change-limit.ts).
  const changeLimit = createAccountChangeLimit(createRateLimiter(database.db));
  const twoFactorFlows = createTwoFactorFlows({ auth, publicOrigin, repo, log, parseUserResponse });
  const emailChangeFlows = createEmailChangeFlows({
    auth,
    repo,
    mail,
    log,
    secret: config.authSecret,
    publicUrl: publicOrigin,
    changeLimit,
  });
  const sessionFlows = createSessionFlows({ auth, changeLimit });
  const credentialFlows = createCredentialFlows({
    auth,
    config,
    repo,
    publicOrigin,
    signUpLimiter: createRateLimiter(database.db),
    signInGuard: createSignInGuard({
      config,
      db: database.db,
      repo,
      passwords,
      mail,
      publicUrl: publicOrigin,
    }),
    toAppError,
    parseUserResponse,
  });

  return {
    ...emailFlows,
    ...twoFactorFlows,
    ...sessionFlows,
    ...emailChangeFlows,
    ...credentialFlows,

    async getSessionUser(headers) {
      if (!headers.get('cookie')) return null;
      return (await readSession(headers, false)).user;
    },

    async deleteExpiredRateLimits(now = new Date()) {
      // Every window (ours and better-auth's) is at most a day: older counters count for nothing.
      const ours = await createRateLimiter(database.db).deleteExpired(now);
      return ours + (await repo.deleteAuthRateLimitsBefore(now.getTime() - RATE_LIMIT_RETENTION_MS));
    },

    async signOut(request) {
      // better-auth deletes the session row named by the cookie and expires the cookie.
      const res = await auth.handler(forwardRequest(publicOrigin, '/sign-out', request, {}));
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
          passwordHash: await passwords.hash(password),
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
      await repo.upsertPasswordHash(userId, await passwords.hash(valid));
    },

    async verifyPassword(userId, password) {
      const hash = await repo.findPasswordHash(userId);
      return hash !== null && (await passwords.verify(hash, password));
    },

    async setRole(userId, role) {
      if (!(await repo.updateRole(userId, RoleSchema.parse(role))))
        throw new AppError('NOT_FOUND', 'User not found');
    },

    revokeSessions(userId) {
      return repo.deleteSessionsOfUser(userId);
    },

    async findUserByEmail(email) {
      const row = await repo.findUserByEmail(email.trim().toLowerCase());
      return row ? toSessionUser(row) : null;
    },

    async findUserById(id) {
      const row = await repo.findUserById(id);
      return row ? toSessionUser(row) : null;
    },

    hashPassword(password) {
      return passwords.hash(password);
    },

    hasAdmin() {
      return repo.existsAdmin();
    },
  };
}
