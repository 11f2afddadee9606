import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#server/app';
import { EnvSchema, loadConfig } from '#server/config';
import { webDistDir } from '#server/lib/paths';
import { SPA_ROUTE_PATTERNS } from '#common/routes';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, TestClient, type TestApp } from '../helpers/test-app';
import { signInClients } from './admin-test-kit';

describe.each(BACKENDS)('server basics (%s)', (backend) => {
  let t: TestApp;
  let webDir: string;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    // Laid out as the web build (dist/web): static files of the test's own under client/, the
    // pages from the real server build (npm run build) under server/.
    webDir = mkdtempSync(path.join(tmpdir(), 'shop-web-'));
    const client = path.join(webDir, 'client');
    mkdirSync(path.join(client, 'assets'), { recursive: true });
    writeFileSync(
      path.join(client, 'assets', 'index-abc123.js'),
      `console.log(${JSON.stringify('x'.repeat(5000))});`,
    );
    writeFileSync(path.join(client, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["app.tsx"]}');
    writeFileSync(path.join(client, 'robots.txt'), 'User-agent: *\n');
    symlinkSync(path.join(webDistDir, 'server'), path.join(webDir, 'server'));
    app = createApp(t.deps, { webDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('answers GET /api/health with the database status, and tells the database kind to admins only', async () => {
    const res = await app.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok' });
    const { customer, admin } = await signInClients(t);
    expect(await (await customer.get('/api/health')).json()).toEqual({ status: 'ok', database: 'ok' });
    expect(await (await admin.get('/api/health')).json()).toEqual({ status: 'ok', database: 'ok', backend });
  });

  it('keeps source maps private unless SOURCE_MAPS=public', async () => {
    const hidden = await app.request('/assets/index-abc123.js.map');
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).not.toContain('sources');
    const publicApp = createApp(
      { ...t.deps, config: { ...t.deps.config, publicSourceMaps: true } },
      { webDir },
    );
    const shown = await publicApp.request('/assets/index-abc123.js.map');
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('"sources":["app.tsx"]');
    expect((await app.request('/assets/index-abc123.js')).status).toBe(200);
  });

  it('serves the SPA for every route of the route table and a 404 page otherwise', async () => {
    // A full load without a session goes to the area's sign-in page, and /success without a
    // reference to the store; with the admin's session every page is served.
    const anonymousGoesTo = (url: string): string | undefined => {
      if (url.startsWith('/profile')) return '/login';
      if (url.startsWith('/admin') && url !== '/admin/login') return '/admin/login?reason=unauthenticated';
      if (url === '/success') return '/';
      return undefined;
    };
    const { admin } = await signInClients(t);
    const signedIn = new TestClient(app);
    for (const [name, value] of admin.cookies) signedIn.cookies.set(name, value);
    // /products/:id answers 404 for an unknown product: tests/integration/catalog.test.ts covers it.
    for (const pattern of SPA_ROUTE_PATTERNS.filter((p) => p !== '/products/:id')) {
      const url = pattern.replace(':id', '123e4567-e89b-42d3-a456-426614174000').replace('*', 'orders');
      const to = anonymousGoesTo(url);
      const anonymous = await app.request(url);
      if (to) expect([anonymous.status, anonymous.headers.get('location')], url).toEqual([302, to]);
      let res = anonymous;
      if (url === '/success') res = await app.request('/success?reference=abc');
      // Signed in, /profile itself is sent on to its first page (the orders) when pages render on the server.
      else if (to) res = await signedIn.get(url === '/profile' ? '/profile/orders' : url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      // A guest order's page and an account page hold private details: no cache keeps them.
      expect(res.headers.get('cache-control'), url).toBe(
        url.startsWith('/orders/') || url.startsWith('/profile') ? 'no-store' : 'no-cache',
      );
      // The web app's document, from its server build.
      expect(await res.text(), url).toMatch(/^<!DOCTYPE html><html lang="en">/);
    }
    const missing = await app.request('/no/such/page');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page not found');
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await app.request('/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const robots = await app.request('/robots.txt');
    expect(robots.status).toBe(200);
  });

  it('sends security headers with a real Content-Security-Policy', async () => {
    const res = await app.request('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=()');
    // The older header agrees with frame-ancestors 'none'.
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    // Plain http (PUBLIC_URL http://localhost:3000): no HSTS promise it cannot keep.
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS when the shop is served over https', async () => {
    const config = { ...t.deps.config, publicUrl: 'https://shop.example', secureCookies: true };
    const httpsApp = createApp({ ...t.deps, config }, { webDir });
    const res = await httpsApp.request('/');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('serves the pages once the web build is there, when a request came before it (npm run build still running)', async () => {
    const later = mkdtempSync(path.join(tmpdir(), 'shop-web-later-'));
    try {
      mkdirSync(path.join(later, 'client'));
      const early = createApp(t.deps, { webDir: later });
      const before = await early.request('/about');
      expect(before.status).toBe(503);
      expect(await before.text()).toContain('not built yet');
      symlinkSync(path.join(webDistDir, 'server'), path.join(later, 'server'));
      const after = await early.request('/about');
      expect(after.status).toBe(200);
      expect(await after.text()).toContain('<html');
    } finally {
      rmSync(later, { recursive: true, force: true });
    }
  });

  it('answers unknown API routes with 404 JSON', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await app.request('/api/nothing/here', {
        method,
        headers: { origin: 'http://localhost:3000', 'content-type': 'application/json' },
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });
});

describe('configuration', () => {
  it('rejects invalid values naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc', DATA_DIR: tmpdir() })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x', DATA_DIR: tmpdir() })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'nope', DATA_DIR: tmpdir() })).toThrow(/ADMIN_EMAIL/);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', DATA_DIR: tmpdir() })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ TRUSTED_ORIGINS: 'shop.example', DATA_DIR: tmpdir() })).toThrow(
      /TRUSTED_ORIGINS: not an http\(s\) origin: shop\.example/,
    );
    expect(() => loadConfig({ TRUSTED_PROXIES: 'my-proxy', DATA_DIR: tmpdir() })).toThrow(/TRUSTED_PROXIES/);
  });

  it('documents every variable it reads in .env.example', () => {
    const example = readFileSync(path.join(import.meta.dirname, '../../.env.example'), 'utf8');
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const missing = Object.keys(EnvSchema.shape).filter((name) => !documented.has(name));
    expect(missing).toEqual([]);
  });

  it('generates secrets once and keeps them under DATA_DIR', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-config-'));
    try {
      const a = loadConfig({ DATA_DIR: dir });
      const b = loadConfig({ DATA_DIR: dir });
      expect(a.authSecret).toHaveLength(43);
      expect(a.authSecret).toBe(b.authSecret);
      expect(a.encryptionKey.equals(b.encryptionKey)).toBe(true);
      expect(a.secureCookies).toBe(false);
      expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://shop.example' }).secureCookies).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
