import { randomUUID } from 'node:crypto';
import type { AuthUserResponse, SignInInput, SignUpInput, TwoFactorChallenge } from '#common/schemas/auth';
import type { Config } from '#server/config';
import type { AppError } from '#server/lib/app-error';
import { consumeNetworkLimit } from '#server/lib/client-limits';
import type { RateLimiter } from '#server/db/rate-limiter';
import type { createAuthRepository } from './auth.repository';
import type { AuthRequestContext, AuthResult } from './auth.types';
import { forwardRequest, readJson, type BetterAuth } from './better-auth';
import { assertStrongPassword } from './password-policy';
import type { SignInGuard } from './sign-in-guard';

/**
 * Sign-up and sign-in with email and password through better-auth: sign-up bounded per client by
 * better-auth's limiter and per IPv6 /56 here, sign-in admitted by the sign-in guard before the
 * password counts (and told of each failure and success).
 */
export interface CredentialFlows {
  signUp(input: SignUpInput, request: AuthRequestContext): Promise<AuthResult<AuthUserResponse>>;
  /** A session, or (two-factor on) the challenge whose code `verifyTwoFactor` takes. */
  signIn(
    input: SignInInput,
    request: AuthRequestContext,
  ): Promise<AuthResult<AuthUserResponse | TwoFactorChallenge>>;
}

export function createCredentialFlows(deps: {
  auth: BetterAuth;
  config: Config;
  repo: ReturnType<typeof createAuthRepository>;
  publicOrigin: string;
  signUpLimiter: RateLimiter;
  signInGuard: SignInGuard;
  toAppError: (res: Response, operation: 'sign-up' | 'sign-in') => Promise<AppError>;
  parseUserResponse: (res: Response) => Promise<AuthResult<AuthUserResponse>>;
}): CredentialFlows {
  const { auth, config, repo, publicOrigin, signUpLimiter, signInGuard, toAppError, parseUserResponse } =
    deps;

  return {
    async signUp(input, request) {
      assertStrongPassword(input.password, 'password', [input.email, input.name ?? '']);
      // better-auth counts sign-ups per client (an IPv6 /64); an IPv6 /56 is bounded here.
      await consumeNetworkLimit(
        signUpLimiter,
        'sign-up',
        request.clientIp,
        config.signUpRateLimit,
        config.networkLimitMultiplier,
      );
      const res = await auth.handler(
        forwardRequest(publicOrigin, '/sign-up/email', request, {
          email: input.email,
          password: input.password,
          name: input.name ?? '',
        }),
      );
      // Lost a race for the address to another sign-up: the answer a taken address gets.
      if (res.status === 422 && (await repo.findUserByEmail(input.email))) {
        const user = {
          id: randomUUID(),
          email: input.email,
          name: input.name ?? '',
          role: 'customer' as const,
        };
        return { body: { user }, setCookies: [] };
      }
      if (!res.ok) throw await toAppError(res, 'sign-up');
      // No session: the same answer whether or not the address had an account (see better-auth.ts).
      return parseUserResponse(res);
    },

    async signIn(input, request) {
      // Throttled, or asked for a mailed code (sign-in-guard.ts), before the password counts.
      await signInGuard.admit(input, request);
      const res = await auth.handler(
        forwardRequest(publicOrigin, '/sign-in/email', request, {
          email: input.email,
          password: input.password,
        }),
      );
      if (!res.ok) {
        if (res.status === 401) await signInGuard.failed(input.email, request.clientIp);
        throw await toAppError(res, 'sign-in');
      }
      const body = (await readJson(res.clone())) as { twoFactorRedirect?: boolean } | null;
      if (body?.twoFactorRedirect) {
        await signInGuard.succeeded(input.email, request, null);
        // The password was right; the session comes with the code (two-factor cookie meanwhile).
        return { body: { twoFactorRequired: true }, setCookies: res.headers.getSetCookie() };
      }
      const result = await parseUserResponse(res);
      const device = await signInGuard.succeeded(input.email, request, result.body.user.id);
      return { ...result, setCookies: [...result.setCookies, ...device] };
    },
  };
}
