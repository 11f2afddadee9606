import type { Context, MiddlewareHandler } from 'hono';
import type { SessionUser } from '#common/schemas/auth';
import { AppError } from './app-error';
import type { AppEnv } from './hono-env';

export type SessionResolver = (headers: Headers) => Promise<SessionUser | null>;

/** Looks the session up once per request, whatever asks first. */
export function sessionMiddleware(resolve: SessionResolver): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let memo: Promise<SessionUser | null> | undefined;
    c.set('getSessionUser', () => (memo ??= resolve(c.req.raw.headers)));
    await next();
  };
}

export async function currentUser(c: Context<AppEnv>): Promise<SessionUser | null> {
  return c.var.getSessionUser();
}

/** 401 without a session. Authorization is checked on every request, never trusted from the client. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = await currentUser(c);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
  c.set('user', user);
  await next();
};

/** 401 without a session, 403 for a signed-in user who is not an admin. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = await currentUser(c);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
  if (user.role !== 'admin') throw new AppError('FORBIDDEN', 'Not authorized');
  c.set('user', user);
  await next();
};
