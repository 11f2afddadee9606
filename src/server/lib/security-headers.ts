import { Hono, type MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './hono-env';

/** The few settings the headers depend on (the shop's Config has them). */
export interface SecurityHeaderSettings {
  /** Served over https: HSTS is sent. */
  secureCookies: boolean;
  /** Where product photos come from: an S3 bucket's origin is allowed as an image source. */
  storage: { driver: 'local' } | { driver: 's3'; publicUrl: string };
}

/** Header name (lower case, as sent) and value pairs, the same on every response they go on. */
export type FixedHeaders = ReadonlyArray<readonly [string, string]>;

/**
 * The security headers of every response: `api` for the JSON API, `page` for pages. Both are
 * hono/secure-headers with the same settings; the API's policy needs no per-response nonce, so its
 * headers are the same on every answer: read once from the middleware and then set as they are,
 * each answer skipping the middleware's per-response steps. Pages get a fresh CSP nonce each, for
 * the scripts React streams.
 */
export function createSecurityHeaders(config: SecurityHeaderSettings): {
  api: MiddlewareHandler<AppEnv>;
  page: MiddlewareHandler<AppEnv>;
} {
  return {
    api: fixedHeaders(fixedHeadersOf(secureHeaders(securityHeaderOptions(config, false)))),
    page: secureHeaders(securityHeaderOptions(config, true)),
  };
}

/** hono/secure-headers' settings for the shop; `scriptNonce`: a CSP nonce per response (pages). */
export function securityHeaderOptions(
  config: SecurityHeaderSettings,
  scriptNonce: boolean,
): Parameters<typeof secureHeaders>[0] {
  return {
    contentSecurityPolicy: contentSecurityPolicy(config, scriptNonce),
    crossOriginEmbedderPolicy: false,
    // HSTS means something only over https; over plain http it would be a false promise.
    strictTransportSecurity: config.secureCookies ? 'max-age=31536000; includeSubDomains' : false,
    // Agrees with CSP's frame-ancestors 'none' for browsers that only know the older header.
    xFrameOptions: 'DENY',
    // The shop needs none of these; a script that got in could not use them either.
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  };
}

/**
 * Sets `headers` on every response once the route has answered, replacing a value the route set,
 * and removes X-Powered-By (as hono/secure-headers does). Until they are read (one turn of the
 * event loop after start-up) a request waits for them.
 */
function fixedHeaders(headers: Promise<FixedHeaders>): MiddlewareHandler<AppEnv> {
  let ready: FixedHeaders | undefined;
  void headers.then((pairs) => {
    ready = pairs;
  });
  return async (c, next) => {
    await next();
    const answer = c.res.headers;
    for (const [name, value] of ready ?? (await headers)) answer.set(name, value);
    answer.delete('x-powered-by');
  };
}

/**
 * The headers a middleware that sets fixed headers puts on a response, as it sends them: read once
 * from an empty answer through it.
 */
export async function fixedHeadersOf(middleware: MiddlewareHandler<AppEnv>): Promise<FixedHeaders> {
  const probe = new Hono<AppEnv>();
  probe.use(middleware);
  probe.get('*', (c) => c.body(null, 204));
  const res = await probe.request('http://localhost/');
  return Object.freeze([...res.headers].map(([name, value]) => Object.freeze([name, value] as const)));
}

function contentSecurityPolicy(config: Pick<SecurityHeaderSettings, 'storage'>, scriptNonce: boolean) {
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
