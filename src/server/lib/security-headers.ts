import { Hono, type MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config';
import type { AppEnv } from './hono-env';

/** Header name (lower case, as sent) and value pairs, the same on every response they go on. */
export type FixedHeaders = ReadonlyArray<readonly [string, string]>;

/**
 * The security headers of every response: `api` for the JSON API (fixed headers: its policy needs
 * no per-response nonce, no random bytes per request), `page` for pages (a fresh CSP nonce each,
 * for the scripts React streams).
 */
export function createSecurityHeaders(config: Config): {
  api: MiddlewareHandler<AppEnv>;
  page: MiddlewareHandler<AppEnv>;
} {
  const securityHeaders = (scriptNonce: boolean): MiddlewareHandler<AppEnv> =>
    secureHeaders({
      contentSecurityPolicy: contentSecurityPolicy(config, scriptNonce),
      crossOriginEmbedderPolicy: false,
      // HSTS means something only over https; over plain http it would be a false promise.
      strictTransportSecurity: config.secureCookies ? 'max-age=31536000; includeSubDomains' : false,
      // Agrees with CSP's frame-ancestors 'none' for browsers that only know the older header.
      xFrameOptions: 'DENY',
      // The shop needs none of these; a script that got in could not use them either.
      permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
    });
  return { api: securityHeaders(false), page: securityHeaders(true) };
}

/**
 * The headers a middleware that sets fixed headers (the API's security headers) puts on a
 * response, as it sends them: read once from an empty answer, so that a response written without
 * Hono (catalog-listener.ts) carries exactly the same set.
 */
export async function fixedHeadersOf(middleware: MiddlewareHandler<AppEnv>): Promise<FixedHeaders> {
  const probe = new Hono<AppEnv>();
  probe.use(middleware);
  probe.get('*', (c) => c.body(null, 204));
  const res = await probe.request('http://localhost/');
  return Object.freeze([...res.headers].map(([name, value]) => Object.freeze([name, value] as const)));
}

function contentSecurityPolicy(config: Config, scriptNonce: boolean) {
  const imgSrc = ["'self'", 'data:', 'blob:'];
  if (config.storage.driver === 's3') imgSrc.push(new URL(config.storage.publicUrl).origin);
  return {
    defaultSrc: ["'self'"],
    // A server-rendered page streams React's own small scripts with this response's nonce.
    scriptSrc: scriptNonce ? ["'self'", NONCE] : ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc,
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    frameSrc: ["'self'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  };
}
