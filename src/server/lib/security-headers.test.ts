import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { AppError } from './app-error';
import type { AppEnv } from './hono-env';
import { createSecurityHeaders, securityHeaderOptions } from './security-headers';

type Settings = Pick<Config, 'secureCookies' | 'storage'>;

const PLAIN: Settings = { secureCookies: false, storage: { driver: 'local', dir: '/tmp/uploads' } };
const HTTPS_S3: Settings = {
  secureCookies: true,
  storage: {
    driver: 's3',
    endpoint: undefined,
    region: 'auto',
    bucket: 'shop',
    accessKeyId: undefined,
    secretAccessKey: undefined,
    publicUrl: 'https://cdn.example/shop',
    forcePathStyle: false,
  },
};

/** An app answering in every way a route can: c.json, a 304, a thrown error, its own Response, a header of its own. */
function appWith(middleware: MiddlewareHandler<AppEnv>) {
  const app = new Hono<AppEnv>();
  app.use(middleware);
  app.get('/json', (c) => c.json({ ok: true }));
  app.get('/not-modified', (c) => c.body(null, 304, { ETag: '"x"', 'Cache-Control': 'no-cache' }));
  app.get('/error', () => {
    throw new AppError('NOT_FOUND', 'Nothing here');
  });
  app.get('/raw', () => new Response('raw', { headers: { 'content-type': 'text/plain' } }));
  app.get('/own-header', (c) => {
    c.header('Referrer-Policy', 'origin');
    c.header('X-Powered-By', 'none of your business');
    return c.text('mine');
  });
  app.onError((err, c) => c.json({ error: err.message }, 404));
  return app;
}

describe('security headers', () => {
  it.each([
    ['over http, local uploads', PLAIN],
    ['over https, uploads on S3', HTTPS_S3],
  ])(
    "gives the API's answers the headers hono/secure-headers gives them, set once as fixed (%s)",
    async (_, settings) => {
      const fixed = appWith(createSecurityHeaders(settings).api);
      const hono = appWith(secureHeaders(securityHeaderOptions(settings, false)));
      for (const path of ['/json', '/not-modified', '/error', '/raw', '/own-header']) {
        // After a first request (the fixed set is read from the middleware at start-up) and at once.
        for (const _ of [1, 2]) {
          const [a, b] = await Promise.all([fixed.request(path), hono.request(path)]);
          expect([...a.headers], path).toEqual([...b.headers]);
          expect(a.status, path).toBe(b.status);
        }
      }
      const res = await fixed.request('/json');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security')).toBe(
        settings.secureCookies ? 'max-age=31536000; includeSubDomains' : null,
      );
    },
  );

  it("gives each page a fresh nonce in its policy, the API's policy none", async () => {
    const { api, page } = createSecurityHeaders(PLAIN);
    const csp = async (middleware: MiddlewareHandler<AppEnv>) =>
      (await appWith(middleware).request('/json')).headers.get('content-security-policy') ?? '';
    const [first, second] = [await csp(page), await csp(page)];
    expect(first).toMatch(/script-src 'self' 'nonce-[\w+/=]+'/);
    expect(second).not.toBe(first);
    expect(await csp(api)).toContain("script-src 'self';");
  });
});
