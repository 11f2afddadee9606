import type { MiddlewareHandler } from 'hono';
import { AppError } from './app-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie sessions: a state-changing request is refused when the browser says it
 * comes from another site (Origin not trusted, or Sec-Fetch-Site cross-site). Requests without a
 * cookie carry no ambient authority and pass (API clients, webhooks verified by signature).
 * SameSite=Lax cookies are the second layer.
 */
export function csrfProtection(
  trustedOrigins: readonly string[],
  exemptPaths: readonly string[] = [],
): MiddlewareHandler {
  const trusted = new Set(trustedOrigins);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || exemptPaths.some((p) => c.req.path.startsWith(p))) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const hasCookie = Boolean(c.req.header('cookie'));
    if (origin !== undefined && origin !== 'null') {
      if (!trusted.has(origin)) throw new AppError('CSRF_REJECTED', 'Cross-site request refused');
    } else if (fetchSite === 'cross-site' || (origin === 'null' && hasCookie)) {
      throw new AppError('CSRF_REJECTED', 'Cross-site request refused');
    } else if (hasCookie && fetchSite === undefined && origin === undefined) {
      // A cookie-carrying write with neither header is not a browser we can vouch for.
      if (!trusted.has(originOf(c.req.header('referer')))) {
        throw new AppError('CSRF_REJECTED', 'Cross-site request refused');
      }
    }
    return next();
  };
}

function originOf(url: string | undefined): string {
  if (!url) return '';
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
