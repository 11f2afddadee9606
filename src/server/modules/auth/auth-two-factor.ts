import type { AuthUserResponse, TwoFactorEnableResponse, TwoFactorStatus } from '#common/schemas/auth';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import type { createAuthRepository } from './auth.repository';
import type { AuthRequestContext, AuthResult } from './auth.types';
import { forwardRequest, readJson, type BetterAuth } from './better-auth';

/**
 * Two-factor sign-in on better-auth's two-factor plugin (TOTP, with backup codes): turned on with
 * the password, then confirmed with a first code from the authenticator app; at sign-in, a right
 * password is followed by a code (or a backup code) before any session exists; turning it off
 * needs the password and a current code. better-auth counts wrong codes and locks for a while.
 */

export const TWO_FACTOR_MESSAGES = {
  badCode: 'That code is not right. Check the time on your phone and try again.',
  badPassword: 'Invalid password',
  noChallenge: 'Sign in with your email and password first.',
  required: 'Two-factor authentication is required for admin accounts. Turn it on in your account settings.',
} as const;

export interface TwoFactorFlows {
  twoFactorStatus(userId: string): Promise<TwoFactorStatus>;
  enableTwoFactor(password: string, request: AuthRequestContext): Promise<TwoFactorEnableResponse>;
  confirmTwoFactor(code: string, request: AuthRequestContext): Promise<AuthResult<{ ok: true }>>;
  disableTwoFactor(
    password: string,
    code: string,
    request: AuthRequestContext,
  ): Promise<AuthResult<{ ok: true }>>;
  /** The sign-in's second step: the code (or a backup code) against the two-factor cookie. */
  verifyTwoFactor(
    code: string,
    kind: 'totp' | 'backup',
    request: AuthRequestContext,
  ): Promise<AuthResult<AuthUserResponse>>;
}

export function createTwoFactorFlows(deps: {
  auth: BetterAuth;
  publicOrigin: string;
  repo: ReturnType<typeof createAuthRepository>;
  log: Logger;
  parseUserResponse: (res: Response) => Promise<AuthResult<AuthUserResponse>>;
}): TwoFactorFlows {
  const { auth, publicOrigin, repo, log } = deps;
  const call = (path: string, request: AuthRequestContext, body: unknown) =>
    auth.handler(forwardRequest(publicOrigin, path, request, body));

  async function refused(res: Response, badInput: string): Promise<AppError> {
    if (res.status === 401 && badInput === TWO_FACTOR_MESSAGES.noChallenge) {
      return new AppError('UNAUTHENTICATED', badInput);
    }
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      return new AppError('VALIDATION_FAILED', badInput);
    }
    if (res.status === 429) return new AppError('RATE_LIMITED', 'Too many attempts. Please wait a moment.');
    log.error({ status: res.status, body: await readJson(res) }, 'unexpected two-factor response');
    return new AppError('INTERNAL', 'Internal server error');
  }

  const ok = (res: Response): AuthResult<{ ok: true }> => ({
    body: { ok: true },
    setCookies: res.headers.getSetCookie(),
  });

  return {
    async twoFactorStatus(userId) {
      return { enabled: await repo.isTwoFactorEnabled(userId) };
    },

    async enableTwoFactor(password, request) {
      const res = await call('/two-factor/enable', request, { password });
      if (!res.ok) throw await refused(res, TWO_FACTOR_MESSAGES.badPassword);
      const body = (await readJson(res)) as { totpURI?: string; backupCodes?: string[] } | null;
      if (!body?.totpURI || !body.backupCodes) throw await refused(res, TWO_FACTOR_MESSAGES.badPassword);
      return { totpURI: body.totpURI, backupCodes: body.backupCodes };
    },

    async confirmTwoFactor(code, request) {
      const res = await call('/two-factor/verify-totp', request, { code });
      if (!res.ok) throw await refused(res, TWO_FACTOR_MESSAGES.badCode);
      return ok(res);
    },

    async disableTwoFactor(password, code, request) {
      const verified = await call('/two-factor/verify-totp', request, { code });
      if (!verified.ok) throw await refused(verified, TWO_FACTOR_MESSAGES.badCode);
      const res = await call('/two-factor/disable', request, { password });
      if (!res.ok) throw await refused(res, TWO_FACTOR_MESSAGES.badPassword);
      return ok(res);
    },

    async verifyTwoFactor(code, kind, request) {
      if (!request.headers.get('cookie')?.includes('two_factor')) {
        throw new AppError('UNAUTHENTICATED', TWO_FACTOR_MESSAGES.noChallenge);
      }
      const path = kind === 'backup' ? '/two-factor/verify-backup-code' : '/two-factor/verify-totp';
      const res = await call(path, request, { code });
      if (!res.ok) throw await refused(res, TWO_FACTOR_MESSAGES.badCode);
      return deps.parseUserResponse(res);
    },
  };
}
