import { Hono } from 'hono';
import { z } from 'zod';
import { PasswordChangeInputSchema } from '#common/schemas/auth';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { AuthService } from './auth.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface AuthSessionsRoutesDeps {
  auth: AuthService;
}

const SessionParamsSchema = z.object({ id: z.string().min(1).max(128) });

/**
 * The signed-in customer's devices and password (all signed in, own sessions only):
 *   GET    /sessions                -> AccountSessionList (this device first)
 *   DELETE /sessions/:id            -> { ok } another device signed out (404 if not theirs)
 *   POST   /sessions/revoke-others  -> { revoked } every other device signed out
 *   POST   /password {currentPassword, newPassword} -> { ok, revoked } other devices signed out
 */
export function authSessionRoutes(deps: AuthSessionsRoutesDeps): Hono<AppEnv> {
  const { auth } = deps;
  return new Hono<AppEnv>()
    .use('/sessions/*', requireUser)
    .use('/sessions', requireUser)
    .use('/password', requireUser)
    .get('/sessions', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await auth.listSessions(c.req.raw.headers));
    })
    .post('/sessions/revoke-others', async (c) => c.json(await auth.revokeOtherSessions(c.req.raw.headers)))
    .delete('/sessions/:id', validate('param', SessionParamsSchema), async (c) =>
      c.json(await auth.revokeSession(c.req.valid('param').id, c.req.raw.headers)),
    )
    .post('/password', validate('json', PasswordChangeInputSchema), async (c) =>
      c.json(await auth.changePassword(c.var.user.id, c.req.valid('json'), c.req.raw.headers)),
    );
}
