import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { signInClients, type AdminClients } from './admin-test-kit';

/**
 * The authorization matrix: every /api/admin route, read from the router (so a route added later
 * is covered without touching this test), for anonymous (401), a signed-in customer (403) and an
 * admin (never 401/403).
 */
describe.each(BACKENDS)('admin API authorization (%s)', (backend) => {
  let t: TestApp;
  let clients: AdminClients;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    clients = await signInClients(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';
  function adminRoutes() {
    const seen = new Set<string>();
    return t.app.routes
      .filter((r) => r.path.startsWith('/api/admin/') && r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({ method: r.method, path: r.path.replace(/:(\w+)(\{[^}]*\})?/g, PLACEHOLDER) }))
      .filter((r) => {
        const key = `${r.method} ${r.path}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  }

  it('finds every admin route in the router', () => {
    const routes = adminRoutes().map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'GET /api/admin/dashboard',
      'GET /api/admin/products',
      'GET /api/admin/product-categories',
      `POST /api/admin/products`,
      `PUT /api/admin/products/${PLACEHOLDER}`,
      `PATCH /api/admin/products/${PLACEHOLDER}`,
      `DELETE /api/admin/products/${PLACEHOLDER}`,
      'GET /api/admin/orders',
      `PATCH /api/admin/orders/${PLACEHOLDER}`,
      `DELETE /api/admin/orders/${PLACEHOLDER}`,
      'GET /api/admin/customers',
      'GET /api/admin/analytics',
      'GET /api/admin/audit',
      'GET /api/admin/audit/actions',
      'GET /api/admin/airdrops',
      'GET /api/admin/airdrops/preview',
      'POST /api/admin/airdrops/process',
      'GET /api/admin/messages',
      `PATCH /api/admin/messages/${PLACEHOLDER}/status`,
      `PATCH /api/admin/messages/${PLACEHOLDER}/priority`,
      `GET /api/admin/messages/${PLACEHOLDER}/thread`,
      `POST /api/admin/messages/${PLACEHOLDER}/replies`,
      'GET /api/admin/settings',
      'GET /api/admin/outbox',
      `GET /api/admin/outbox/${PLACEHOLDER}`,
      `PUT /api/admin/settings/${PLACEHOLDER}/${PLACEHOLDER}`,
      `DELETE /api/admin/settings/${PLACEHOLDER}/${PLACEHOLDER}`,
    ]) {
      expect(routes).toContain(expected);
    }
  });

  const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

  it('answers 401 to anonymous requests on every admin route', async () => {
    for (const { method, path } of adminRoutes()) {
      const res = await clients.anonymous.request(method, path, { json: bodyFor(method) });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('answers 403 to a signed-in customer on every admin route', async () => {
    for (const { method, path } of adminRoutes()) {
      const res = await clients.customer.request(method, path, { json: bodyFor(method) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: 'Not authorized' } });
    }
  });

  it('lets an admin through on every admin route (never 401 or 403, never 500)', async () => {
    for (const { method, path } of adminRoutes()) {
      const res = await clients.admin.request(method, path, { json: bodyFor(method) });
      expect([401, 403], `${method} ${path}`).not.toContain(res.status);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      await res.body?.cancel();
    }
  });

  it('guards unknown admin paths too, so they reveal nothing', async () => {
    expect((await clients.anonymous.get('/api/admin/no-such-thing')).status).toBe(401);
    expect((await clients.customer.get('/api/admin/no-such-thing')).status).toBe(403);
    expect((await clients.admin.get('/api/admin/no-such-thing')).status).toBe(404);
  });

  it('marks admin answers as not cacheable', async () => {
    const res = await clients.admin.get('/api/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
