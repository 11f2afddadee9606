import { Hono, type Context } from 'hono';
import { SignInInputSchema, SignUpInputSchema } from '#common/schemas/auth';
import { clientIpOf } from '#server/lib/client-ip';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { AuthRequestContext, AuthResult } from './auth.types';
import type { AuthService } from './auth.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface AuthRoutesDeps {
  auth: AuthService;
}

/**
 * /api/auth: the only auth endpoints the shop exposes. better-auth's other endpoints are not
 * mounted (any other path under /api/auth is a 404 JSON from the app).
 *
 *   POST /sign-up/email  {email, password, name?}  -> 200 { user } + session cookie
 *   POST /sign-in/email  {email, password}         -> 200 { user } + session cookie
 *   POST /sign-out                                 -> 200 { ok: true }, cookie cleared
 *   GET  /me                                       -> 200 { user: SessionUser | null }
 *
 * Errors use our shape: 400 VALIDATION_FAILED, 401 UNAUTHENTICATED, 403 CSRF_REJECTED,
 * 409 CONFLICT, 429 RATE_LIMITED (with Retry-After).
 */
export function authRoutes(deps: AuthRoutesDeps): Hono<AppEnv> {
  const { auth } = deps;
  const router = new Hono<AppEnv>();

  router.post('/sign-up/email', validate('json', SignUpInputSchema), (c) =>
    send(c, () => auth.signUp(c.req.valid('json'), requestContext(c))),
  );

  router.post('/sign-in/email', validate('json', SignInInputSchema), (c) =>
    send(c, () => auth.signIn(c.req.valid('json'), requestContext(c))),
  );

  router.post('/sign-out', (c) => send(c, () => auth.signOut(requestContext(c))));

  router.get('/me', (c) => send(c, () => auth.me(c.req.raw.headers)));

  return router;
}

export function requestContext(c: Context<AppEnv>): AuthRequestContext {
  return { headers: c.req.raw.headers, clientIp: clientIpOf(c), requestOrigin: c.var.requestOrigin };
}

export async function send<T>(c: Context<AppEnv>, run: () => Promise<AuthResult<T>>): Promise<Response> {
  c.header('Cache-Control', 'no-store');
  // Errors (a RateLimitedError too, with its Retry-After) go to app.onError.
  const result = await run();
  for (const cookie of result.setCookies) c.header('Set-Cookie', cookie, { append: true });
  return c.json(result.body as object, 200);
}
