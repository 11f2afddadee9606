import type { MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config';
import type { AppEnv } from './hono-env';

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
