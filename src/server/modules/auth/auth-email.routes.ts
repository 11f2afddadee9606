import { Hono } from 'hono';
import {
  EmailChangeConfirmSchema,
  EmailChangeInputSchema,
  ForgotPasswordInputSchema,
  ResetPasswordInputSchema,
  VerifyEmailInputSchema,
  VerifyEmailQuerySchema,
} from '#common/schemas/auth';
import { currentUser, requireUser } from '#server/lib/auth-guards';
import { clientIpOf } from '#server/lib/client-ip';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import { requestContext, send } from './auth.routes';
import type { AuthService } from './auth.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface AuthEmailRoutesDeps {
  auth: AuthService;
}

/**
 * /api/auth, the email flows (mail is written to the outbox, sent by the mail sender):
 *   GET  /email-verification         -> { email, verified } (signed in)
 *   POST /email-verification/resend  -> { ok } a new confirmation link (signed in, 3 per 10 min)
 *   GET  /verify-email?token=        -> { email, createdAt, verified } the account the link confirms
 *   POST /verify-email {token, mode, password} -> { email, signedIn, twoFactorRequired } the address
 *                                       is confirmed only with the password step ('set': a new one;
 *                                       'current': the account's); every earlier session ends and
 *                                       the confirmer is signed in (Set-Cookie)
 *   POST /forgot-password {email}    -> { ok } the same answer whether or not the address has an account
 *   POST /reset-password {token, password} -> { ok } new password; every session signed out
 *   POST /change-email {newEmail, password} -> { ok } a confirmation link to the new address (signed in)
 *   POST /change-email/confirm {user, email, token} -> { ok } the account has the new address
 */
export function authEmailRoutes(deps: AuthEmailRoutesDeps): Hono<AppEnv> {
  const { auth } = deps;
  return new Hono<AppEnv>()
    .use('*', async (c, next) => {
      c.header('Cache-Control', 'no-store');
      await next();
    })
    .get('/email-verification', requireUser, async (c) => c.json(await auth.emailStatus(c.var.user.id)))
    .post('/email-verification/resend', requireUser, async (c) => {
      await auth.resendVerification(c.var.user.id);
      return c.json({ ok: true });
    })
    .get('/verify-email', validate('query', VerifyEmailQuerySchema), async (c) =>
      c.json(await auth.verificationAccount(c.req.valid('query').token)),
    )
    .post('/verify-email', validate('json', VerifyEmailInputSchema), (c) =>
      send(c, () => auth.verifyEmail(c.req.valid('json'), requestContext(c))),
    )
    .post('/forgot-password', validate('json', ForgotPasswordInputSchema), async (c) => {
      await auth.requestPasswordReset(c.req.valid('json').email, {
        clientIp: clientIpOf(c),
        headers: c.req.raw.headers,
        userId: (await currentUser(c))?.id ?? null,
      });
      return c.json({ ok: true });
    })
    .post('/change-email', requireUser, validate('json', EmailChangeInputSchema), async (c) => {
      await auth.requestEmailChange(c.var.user.id, c.req.valid('json'), c.req.raw.headers);
      return c.json({ ok: true });
    })
    .post('/change-email/confirm', validate('json', EmailChangeConfirmSchema), async (c) => {
      await auth.confirmEmailChange(c.req.valid('json'));
      return c.json({ ok: true });
    })
    .post('/reset-password', validate('json', ResetPasswordInputSchema), async (c) => {
      const { token, password } = c.req.valid('json');
      await auth.resetPassword(token, password);
      return c.json({ ok: true });
    });
}
