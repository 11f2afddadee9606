import { deviceLabel } from '#common/device';
import { SESSION_TEXTS, type AccountSessionList } from '#common/schemas/auth';
import { AppError } from '#server/lib/app-error';
import type { RateLimiter, RateLimitRule } from '#server/lib/rate-limiter';
import type { createAuthRepository } from './auth.repository';
import { isAPIError } from 'better-auth/api';
import { withoutClientIp, type BetterAuth, type PasswordHasher } from './better-auth';
import { assertStrongPassword } from './password-policy';

/** Password changes a signed-in user may try per quarter hour (a stolen session guessing the password). */
export const PASSWORD_CHANGE_RATE_LIMIT: RateLimitRule = { max: 5, windowSeconds: 900 };

/**
 * A customer's signed-in devices and password change, on better-auth's session API
 * (`listSessions`, `revokeSession`, `revokeOtherSessions`), which acts only on the sessions of the
 * request's own user. Ours on top: a session is named by its id, never by its token (the token is
 * the cookie's secret), so signing one device out finds its token in the user's own list; this
 * device is listed first and is signed out with Sign Out, not by id; and the number of devices
 * signed out is counted from that list (better-auth answers only `{ status }`). The password
 * change checks the current password, the new one must pass the policy, and every other session
 * is signed out; the device making the change stays signed in.
 */
export interface SessionFlows {
  listSessions(headers: Headers): Promise<AccountSessionList>;
  /** Signs one of the user's other devices out (404 for an unknown id or someone else's). */
  revokeSession(sessionId: string, headers: Headers): Promise<{ ok: true }>;
  revokeOtherSessions(headers: Headers): Promise<{ revoked: number }>;
  changePassword(
    userId: string,
    input: { currentPassword: string; newPassword: string },
    headers: Headers,
  ): Promise<{ ok: true; revoked: number }>;
}

export function createSessionFlows(deps: {
  auth: BetterAuth;
  repo: ReturnType<typeof createAuthRepository>;
  passwords: PasswordHasher;
  rateLimiter: RateLimiter;
}): SessionFlows {
  const { auth, repo, passwords } = deps;

  /** better-auth's call for the request's user; its 401 (no session by now) as ours. */
  async function asUser<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (isAPIError(err) && err.statusCode === 401)
        throw new AppError('UNAUTHENTICATED', 'Not authenticated');
      throw err;
    }
  }

  async function currentSessionId(headers: Headers): Promise<string> {
    const session = await auth.api.getSession({ headers: withoutClientIp(headers) });
    if (!session) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
    return session.session.id;
  }

  /** The user's live sessions (better-auth's list: never another user's), and which is this one. */
  async function sessionsOf(headers: Headers) {
    const current = await currentSessionId(headers);
    const sessions = await asUser(() => auth.api.listSessions({ headers: withoutClientIp(headers) }));
    return { current, sessions };
  }

  return {
    async listSessions(headers) {
      const { current, sessions } = await sessionsOf(headers);
      const list = sessions.map((s) => ({
        id: s.id,
        current: s.id === current,
        device: deviceLabel(s.userAgent ?? null),
        ipAddress: s.ipAddress ?? null,
        createdAt: new Date(s.createdAt).toISOString(),
        lastActiveAt: new Date(s.updatedAt).toISOString(),
      }));
      // This device first, then the most recently used.
      list.sort(
        (a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt),
      );
      return { sessions: list };
    },

    async revokeSession(sessionId, headers) {
      const { current, sessions } = await sessionsOf(headers);
      if (sessionId === current) {
        throw new AppError('VALIDATION_FAILED', 'Use Sign Out to end the session on this device');
      }
      const session = sessions.find((s) => s.id === sessionId);
      if (!session) throw new AppError('NOT_FOUND', 'Session not found');
      await asUser(() =>
        auth.api.revokeSession({ headers: withoutClientIp(headers), body: { token: session.token } }),
      );
      return { ok: true };
    },

    async revokeOtherSessions(headers) {
      const { current, sessions } = await sessionsOf(headers);
      await asUser(() => auth.api.revokeOtherSessions({ headers: withoutClientIp(headers) }));
      return { revoked: sessions.filter((s) => s.id !== current).length };
    },

    async changePassword(userId, input, headers) {
      const keep = await currentSessionId(headers);
      // Counted before the check, so guessing stops at the limit whatever the guesses were.
      await deps.rateLimiter.consume(
        'password-change',
        userId,
        PASSWORD_CHANGE_RATE_LIMIT,
        'Too many attempts. Please wait a few minutes and try again.',
      );
      const hash = await repo.findPasswordHash(userId);
      if (hash === null || !(await passwords.verify(hash, input.currentPassword))) {
        throw new AppError('VALIDATION_FAILED', SESSION_TEXTS.wrongPassword, {
          currentPassword: SESSION_TEXTS.wrongPassword,
        });
      }
      if (input.newPassword === input.currentPassword) {
        throw new AppError('VALIDATION_FAILED', SESSION_TEXTS.samePassword, {
          newPassword: SESSION_TEXTS.samePassword,
        });
      }
      assertStrongPassword(input.newPassword, 'newPassword');
      await repo.upsertPasswordHash(userId, await passwords.hash(input.newPassword));
      return { ok: true, revoked: await repo.deleteOtherSessions(userId, keep) };
    },
  };
}
