import { isAPIError } from 'better-auth/api';
import { deviceLabel } from '#common/device';
import { SESSION_TEXTS, type AccountSessionList } from '#common/schemas/auth';
import { AppError } from '#server/lib/app-error';
import type { AccountChangeLimit } from './account-change-limit';
import { withoutClientIp, type BetterAuth } from './better-auth';
import { weakPasswordFeedback } from './password-policy';

/**
 * A customer's signed-in devices and password change, on better-auth's API: `listSessions`,
 * `revokeSession`, `revokeOtherSessions`, `changePassword` and `verifyPassword`, which act only
 * for the request's own user and session. Ours, because better-auth does not do it:
 * - a session is named by its id, never by its token (the cookie's secret): signing one device out
 *   finds the token in the user's own list; this device comes first and is not ended by id (Sign
 *   Out does that); the number of devices signed out is counted from the list (better-auth answers
 *   `{ status }`);
 * - a password change is limited per user (account-change-limit.ts), the new password must pass
 *   the shop's policy (password-policy.ts) and differ from the current one, and a wrong current
 *   password is the answer before anything about the new one;
 * - the other devices are signed out after the change with `revokeOtherSessions`, not with
 *   `changePassword({ revokeOtherSessions: true })`: that one also ends this device's session and
 *   makes a new one (a new cookie, id and creation date, which would restart the absolute cap),
 *   where this device keeps its session.
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
  changeLimit: AccountChangeLimit;
}): SessionFlows {
  const { auth } = deps;

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
      await deps.changeLimit.consume('password-change', userId);
      const forwarded = withoutClientIp(headers);
      const refusal = newPasswordRefusal(input);
      if (refusal) {
        // A wrong current password is still the answer before anything about the new one.
        await asUser(() =>
          auth.api.verifyPassword({ headers: forwarded, body: { password: input.currentPassword } }),
        ).catch(wrongCurrentPassword);
        throw refusal;
      }
      await asUser(() =>
        auth.api.changePassword({
          headers: forwarded,
          body: {
            currentPassword: input.currentPassword,
            newPassword: input.newPassword,
            revokeOtherSessions: false,
          },
        }),
      ).catch(wrongCurrentPassword);
      // Every other device signed out; this one keeps its session (see the top of the file).
      const sessions = await asUser(() => auth.api.listSessions({ headers: forwarded }));
      const others = sessions.filter((s) => s.id !== keep).length;
      await asUser(() => auth.api.revokeOtherSessions({ headers: forwarded }));
      return { ok: true, revoked: others };
    },
  };
}

/** The new password's refusal (the same as the current one, or too weak), or null. */
function newPasswordRefusal(input: { currentPassword: string; newPassword: string }): AppError | null {
  if (input.newPassword === input.currentPassword) {
    return new AppError('VALIDATION_FAILED', SESSION_TEXTS.samePassword, {
      newPassword: SESSION_TEXTS.samePassword,
    });
  }
  const weak = weakPasswordFeedback(input.newPassword);
  return weak ? new AppError('VALIDATION_FAILED', `newPassword: ${weak}`, { newPassword: weak }) : null;
}

/** better-auth's refusal of the current password (wrong, or the account has none) as ours. */
function wrongCurrentPassword(err: unknown): never {
  const code = isAPIError(err) ? (err.body as { code?: unknown } | undefined)?.code : undefined;
  if (code === 'INVALID_PASSWORD' || code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') {
    throw new AppError('VALIDATION_FAILED', SESSION_TEXTS.wrongPassword, {
      currentPassword: SESSION_TEXTS.wrongPassword,
    });
  }
  throw err;
}
