import { deviceLabel } from '#common/device';
import { SESSION_TEXTS, type AccountSessionList } from '#common/schemas/auth';
import { AppError } from '#server/lib/app-error';
import type { RateLimiter, RateLimitRule } from '#server/lib/rate-limiter';
import type { createAuthRepository } from './auth.repository';
import { withoutClientIp, type BetterAuth, type PasswordHasher } from './better-auth';
import { assertStrongPassword } from './password-policy';

/** Password changes a signed-in user may try per quarter hour (a stolen session guessing the password). */
export const PASSWORD_CHANGE_RATE_LIMIT: RateLimitRule = { max: 5, windowSeconds: 900 };

/**
 * A customer's signed-in devices (the sessions table, never another user's) and password change:
 * the current password is checked, the new one must pass the policy, and every other session is
 * signed out in the same transaction; the device making the change stays signed in.
 */
export interface SessionFlows {
  listSessions(userId: string, headers: Headers): Promise<AccountSessionList>;
  /** Signs one of the user's other devices out (404 for an unknown id or someone else's). */
  revokeSession(userId: string, sessionId: string, headers: Headers): Promise<{ ok: true }>;
  revokeOtherSessions(userId: string, headers: Headers): Promise<{ revoked: number }>;
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

  async function currentSessionId(headers: Headers): Promise<string> {
    const session = await auth.api.getSession({ headers: withoutClientIp(headers) });
    if (!session) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
    return session.session.id;
  }

  return {
    async listSessions(userId, headers) {
      const current = await currentSessionId(headers);
      const rows = await repo.listSessionsOfUser(userId, new Date());
      const sessions = rows.map((r) => ({
        id: r.id,
        current: r.id === current,
        device: deviceLabel(r.user_agent),
        ipAddress: r.ip_address,
        createdAt: new Date(r.created_at).toISOString(),
        lastActiveAt: new Date(r.updated_at).toISOString(),
      }));
      // This device first, then the most recently used.
      sessions.sort((a, b) => Number(b.current) - Number(a.current));
      return { sessions };
    },

    async revokeSession(userId, sessionId, headers) {
      if (sessionId === (await currentSessionId(headers))) {
        throw new AppError('VALIDATION_FAILED', 'Use Sign Out to end the session on this device');
      }
      if ((await repo.deleteSessionOfUser(userId, sessionId)) === 0) {
        throw new AppError('NOT_FOUND', 'Session not found');
      }
      return { ok: true };
    },

    async revokeOtherSessions(userId, headers) {
      return { revoked: await repo.deleteOtherSessions(userId, await currentSessionId(headers)) };
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
