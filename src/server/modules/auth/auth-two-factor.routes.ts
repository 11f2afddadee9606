import { Hono } from 'hono';
import {
  TwoFactorConfirmInputSchema,
  TwoFactorDisableInputSchema,
  TwoFactorEnableInputSchema,
  TwoFactorVerifyInputSchema,
} from '#common/schemas/auth';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import { requestContext, send } from './auth.routes';
import type { AuthService } from './auth.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface AuthTwoFactorRoutesDeps {
  auth: AuthService;
}

/**
 * /api/auth/two-factor (TOTP with backup codes):
 *   GET  /two-factor                     -> { enabled } (signed in)
 *   POST /two-factor/enable  {password}  -> { totpURI, backupCodes } (signed in; not on until confirmed)
 *   POST /two-factor/confirm {code}      -> { ok } two-factor is on (signed in)
 *   POST /two-factor/disable {password, code} -> { ok } (signed in)
 *   POST /two-factor/verify  {code, kind} -> { user } + session cookie: the sign-in's second step
 */
export function authTwoFactorRoutes(deps: AuthTwoFactorRoutesDeps): Hono<AppEnv> {
  const { auth } = deps;
  return new Hono<AppEnv>()
    .get('/two-factor', requireUser, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await auth.twoFactorStatus(c.var.user.id));
    })
    .post('/two-factor/enable', requireUser, validate('json', TwoFactorEnableInputSchema), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await auth.enableTwoFactor(c.req.valid('json').password, requestContext(c)));
    })
    .post('/two-factor/confirm', requireUser, validate('json', TwoFactorConfirmInputSchema), (c) =>
      send(c, () => auth.confirmTwoFactor(c.req.valid('json').code, requestContext(c))),
    )
    .post('/two-factor/disable', requireUser, validate('json', TwoFactorDisableInputSchema), (c) => {
      const { password, code } = c.req.valid('json');
      return send(c, () => auth.disableTwoFactor(password, code, requestContext(c)));
    })
    .post('/two-factor/verify', validate('json', TwoFactorVerifyInputSchema), (c) => {
      const { code, kind } = c.req.valid('json');
      return send(c, () => auth.verifyTwoFactor(code, kind, requestContext(c)));
    });
}
