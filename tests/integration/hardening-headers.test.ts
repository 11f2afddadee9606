import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPA_ROUTE_PATTERNS } from '#common/routes';
import { createApp } from '#server/app';
import { webDistDir } from '#server/lib/paths';
import { BACKENDS } from '../helpers/databases';
import {
  clientFor,
  createFixtures,
  fillPath,
  paramsFor,
  routeTable,
  SAMPLES,
  type Fixtures,
  type Role,
} from '../helpers/route-table';
import { TestClient, startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Every kind of response the shop sends carries the security headers: API answers (200s, every
 * 4xx, a 503, 304s) for every route of the router as each role, the server-rendered pages, the
 * SPA fallback and its 404 page, redirects, static assets, uploads, robots.txt, the sitemap and the
 * local ledger's JSON-RPC. HSTS (at least a year) only when the shop is served over https.
 */

interface Seen {
  label: string;
  res: Response;
}

const YEAR = 31_536_000;

describe.each(BACKENDS)('security headers on every response (%s)', (backend) => {
  let t: TestApp;
  let fx: Fixtures;
  let https: ReturnType<typeof createApp>;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' } });
    fx = await createFixtures(t);
    https = createApp({
      ...t.deps,
      config: { ...t.deps.config, publicUrl: 'https://shop.example', secureCookies: true },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One request of every kind, through `app` with the fixtures' sessions copied onto its clients. */
  async function everyKindOfResponse(
    app: ReturnType<typeof createApp>,
    roles: readonly Role[] = ['anonymous', 'customer', 'admin'],
  ): Promise<Seen[]> {
    const seen: Seen[] = [];
    const clients: Record<Role, TestClient> = {
      anonymous: new TestClient(app),
      customer: new TestClient(app),
      admin: new TestClient(app),
    };
    for (const who of ['customer', 'admin'] as const)
      for (const [k, v] of clientFor(fx, who).cookies) clients[who].cookies.set(k, v);
    const add = async (label: string, res: Response | Promise<Response>) => {
      const r = await res;
      // Read the headers only: a live-event stream never ends by itself.
      await r.body?.cancel();
      seen.push({ label, res: r });
    };

    for (const route of routeTable(app)) {
      // Signing out here would leave the later routes to an anonymous client.
      if (SAMPLES[route.key]?.endsSession) continue;
      const url = fillPath(route.path, paramsFor(route, fx));
      for (const who of roles) {
        const client = clients[who];
        if (!route.mutating) {
          await add(`${who} ${route.key}`, client.get(url));
          // A random id: 400 or 404.
          if (route.path.includes(':'))
            await add(`${who} ${route.key} (random id)`, client.get(fillPath(route.path, {})));
          continue;
        }
        // Deleting the fixtures' rows would only turn later answers into 404s: those come anyway.
        if (route.method !== 'DELETE') {
          await add(
            `${who} ${route.key} (JSON)`,
            client.request(route.method, url, { json: SAMPLES[route.key]?.body?.(fx) ?? {} }),
          );
        }
        await add(
          `${who} ${route.key} (form: 415)`,
          client.request(route.method, url, { headers: { 'content-type': 'text/plain' }, body: 'x' }),
        );
        await add(
          `${who} ${route.key} (foreign origin)`,
          client.request(route.method, url, {
            headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
            body: '{}',
          }),
        );
      }
    }

    const anonymous = clients.anonymous;
    // 503: card payments without Stripe keys.
    await add(
      'checkout by card without Stripe (503)',
      anonymous.post('/api/checkout', {
        ...(SAMPLES['POST /api/checkout']!.body!(fx) as object),
        paymentMethod: 'card',
      }),
    );
    await add(
      'an oversized body (413)',
      anonymous.post('/api/auth/sign-in/email', {
        email: 'a@example.com',
        password: 'x'.repeat(2 * 1024 * 1024),
      }),
    );
    await add(
      'malformed JSON (400)',
      anonymous.request('POST', '/api/auth/sign-in/email', {
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      }),
    );
    await add('unknown API route (404)', anonymous.get('/api/no/such/route'));
    await add('live events (SSE)', anonymous.get('/api/events?topics=catalog'));

    // 304s: every validator the shop hands out, sent back.
    for (const url of ['/api/products', `/api/products/${fx.productId}`, '/api/shop', '/', '/favicon.svg']) {
      const first = await app.request(url);
      await first.body?.cancel();
      const etag = first.headers.get('etag');
      const modified = first.headers.get('last-modified');
      if (etag) await add(`${url} If-None-Match`, app.request(url, { headers: { 'if-none-match': etag } }));
      if (modified)
        await add(
          `${url} If-Modified-Since`,
          app.request(url, { headers: { 'if-modified-since': modified } }),
        );
    }

    // Every page of the route table, rendered on the server or the SPA's shell, as a visitor (some
    // redirect to their sign-in page) and as the admin; and the 404 page.
    for (const pattern of SPA_ROUTE_PATTERNS) {
      const url = pattern
        .replace(':id', fx.productId)
        .replace(':signature', '5'.repeat(88))
        .replace('*', 'orders');
      await add(`page ${url} (anonymous)`, anonymous.get(url));
      await add(`page ${url} (admin)`, clients.admin.get(url));
    }
    await add('page 404', anonymous.get('/no/such/page'));

    // Static files of the build, a source map (404 unless public), uploads, robots, sitemap.
    const assets = readdirSync(path.join(webDistDir, 'client', 'assets'));
    const script = assets.find((f) => f.endsWith('.js'));
    const style = assets.find((f) => f.endsWith('.css'));
    expect(script, 'a built script in dist/web/client/assets').toBeDefined();
    await add(
      'static script',
      app.request(`/assets/${script}`, { headers: { 'accept-encoding': 'br, gzip' } }),
    );
    if (style) await add('static stylesheet', app.request(`/assets/${style}`));
    await add('static favicon', app.request('/favicon.svg'));
    await add('source map (404)', app.request(`/assets/${script}.map`));
    const key = 'products/1700000000000-headers-800.webp';
    await t.deps.storage.put(key, new Uint8Array([0x52, 0x49, 0x46, 0x46]), 'image/webp');
    await add('upload', app.request(`/uploads/${key}`));
    await add('missing upload (404)', app.request('/uploads/products/none-800.webp'));
    await add('upload path escape (404)', app.request('/uploads/..%2f..%2fpackage.json'));
    await add('robots.txt', app.request('/robots.txt'));
    await add('sitemap.xml', app.request('/sitemap.xml'));

    // The local ledger's JSON-RPC.
    await add('local-chain GET', app.request('/local-chain'));
    await add(
      'local-chain POST',
      app.request('/local-chain', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
      }),
    );
    await add('local-chain bad JSON', app.request('/local-chain', { method: 'POST', body: '{oops' }));
    return seen;
  }

  function expectSecurityHeaders({ label, res }: Seen) {
    const h = res.headers;
    const at = `${label} (${res.status})`;
    expect(h.get('x-content-type-options'), at).toBe('nosniff');
    expect(h.get('x-frame-options'), at).toBe('DENY');
    expect(h.get('referrer-policy'), at).toBe('no-referrer');
    expect(h.get('cross-origin-opener-policy'), at).toBe('same-origin');
    expect(h.get('permissions-policy'), at).toBe('camera=(), microphone=(), geolocation=()');
    expect(h.get('x-powered-by'), at).toBeNull();
    const csp = h.get('content-security-policy') ?? '';
    if ((h.get('content-type') ?? '').includes('text/html') || res.status === 302) {
      expect(csp, at).toContain("default-src 'self'");
      expect(csp, at).toContain("object-src 'none'");
      expect(csp, at).toContain("base-uri 'self'");
    }
    // Every response forbids framing, by CSP and by the older header.
    expect(csp, at).toContain("frame-ancestors 'none'");
  }

  it('sends the security headers on every kind of response, and no HSTS over plain http', async () => {
    const seen = await everyKindOfResponse(t.app);
    const statuses = new Set(seen.map((s) => s.res.status));
    // The sweep really met each kind of answer.
    for (const status of [200, 201, 302, 304, 400, 401, 403, 404, 413, 415, 503])
      expect(statuses, `a ${status}`).toContain(status);
    expect(
      seen.some((s) => s.res.headers.get('content-type')?.includes('text/html') && s.res.status === 200),
    ).toBe(true);
    expect(
      seen.some((s) => s.res.headers.get('content-type')?.includes('text/event-stream')),
      'a live-event stream',
    ).toBe(true);
    for (const s of seen) {
      expectSecurityHeaders(s);
      expect(s.res.headers.get('strict-transport-security'), `${s.label}: no HSTS over http`).toBeNull();
    }
  });

  it('sends HSTS of at least a year on every response when the shop is served over https', async () => {
    // The API as a visitor only: the headers come from one middleware, the roles were swept above.
    const seen = await everyKindOfResponse(https, ['anonymous']);
    expect(seen.length).toBeGreaterThan(100);
    for (const s of seen) {
      expectSecurityHeaders(s);
      const hsts = s.res.headers.get('strict-transport-security') ?? '';
      const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0);
      expect(maxAge, `${s.label}: ${hsts}`).toBeGreaterThanOrEqual(YEAR);
      expect(hsts, s.label).toContain('includeSubDomains');
    }
  });
});
