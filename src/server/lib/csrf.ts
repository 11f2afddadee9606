import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from './app-error';
import type { AppEnv } from './hono-env';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The content types a cross-site HTML form (or a "simple" cross-origin fetch, which skips the
 * CORS preflight) can send. A write declaring one of them, or none, is refused: every legitimate
 * caller declares what it sends (JSON; an image's own type for an upload), and a browser sends
 * such a request cross-site only after a preflight this server never grants.
 */
const SIMPLE_CONTENT_TYPES = new Set([
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
]);

/** The media type of a Content-Type header, lower-cased, without parameters ('' when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * CSRF defence for cookie sessions, in two rules for every state-changing request:
 *
 * 1. Content type: the request must declare a body type a cross-site form cannot send (415
 *    UNSUPPORTED_MEDIA_TYPE otherwise), bodiless writes too (the web app sends
 *    `Content-Type: application/json` on every write). This holds for exempt paths as well: Stripe
 *    and Solana Pay wallets post JSON.
 * 2. Origin: refused when the browser says it comes from another site (Origin not trusted, or
 *    Sec-Fetch-Site cross-site). Requests without a cookie carry no ambient authority and pass (API
 *    clients). Exempt paths skip this rule only: they are called from other origins by design and
 *    authenticate otherwise (a signature, a payment reference).
 *
 * SameSite=Lax cookies are the third layer.
 */
export function csrfProtection(
  trustedOrigins: readonly string[],
  exemptPaths: readonly string[] = [],
  options: CsrfOptions = {},
): MiddlewareHandler<AppEnv> {
  const isTrusted = trustedOrigin(trustedOrigins);
  const refuse = refusal(options);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const mediaType = mediaTypeOf(c.req.header('content-type'));
    if (mediaType === '' || SIMPLE_CONTENT_TYPES.has(mediaType)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the request with Content-Type: application/json (form and text bodies are refused)',
      );
    }
    if (exemptPaths.some((p) => c.req.path.startsWith(p))) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const hasCookie = Boolean(c.req.header('cookie'));
    if (origin !== undefined && origin !== 'null') {
      if (!isTrusted(c, origin)) throw refuse(origin);
    } else if (fetchSite === 'cross-site' || (origin === 'null' && hasCookie)) {
      throw refuse(undefined);
    } else if (hasCookie && fetchSite === undefined && origin === undefined) {
      // A cookie-carrying write with neither header is not a browser we can vouch for.
      const referer = originOf(c.req.header('referer'));
      if (!isTrusted(c, referer)) throw refuse(referer || undefined);
    }
    return next();
  };
}

export interface CsrfOptions {
  /** Development: a refusal names the origin and the settings that would trust it. */
  development?: boolean;
}

/**
 * Whether a write's origin is the shop's: one of PUBLIC_URL's and TRUSTED_ORIGINS, or the origin
 * the request itself was made to (`c.var.requestOrigin`: the shop opened as http://127.0.0.1:3000
 * or from a phone on the LAN). The latter is safe: another site's page cannot make a browser send
 * the shop's own origin, and a page served under another name (DNS rebinding) gets none of the
 * shop's cookies.
 */
function trustedOrigin(trustedOrigins: readonly string[]) {
  const trusted = new Set(trustedOrigins);
  return (c: Context<AppEnv>, origin: string) =>
    origin !== '' && (trusted.has(origin) || origin === c.var.requestOrigin);
}

function refusal({ development = false }: CsrfOptions) {
  return (origin: string | undefined) =>
    new AppError(
      'CSRF_REJECTED',
      development && origin
        ? `Cross-site request refused: ${origin} is not this shop's origin (set PUBLIC_URL to it, or add it to TRUSTED_ORIGINS)`
        : 'Cross-site request refused',
    );
}

/**
 * CSRF defence for the web app's form posts (route actions, which work before the page's code
 * arrives): a page write must come from the shop's own pages. A form post carries Origin in every
 * current browser; without it, Sec-Fetch-Site must say same-origin. Anything else (another site,
 * a script with no browser headers) is refused with 403 before any action runs.
 */
export function pageFormProtection(
  trustedOrigins: readonly string[],
  options: CsrfOptions = {},
): MiddlewareHandler<AppEnv> {
  const isTrusted = trustedOrigin(trustedOrigins);
  const refuse = refusal(options);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || c.req.path.startsWith('/api/')) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const sameSite =
      origin !== undefined && origin !== 'null' ? isTrusted(c, origin) : fetchSite === 'same-origin';
    if (!sameSite) throw refuse(origin);
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
