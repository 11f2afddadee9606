import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';

/**
 * Every API route, read from the router so that a new route cannot be missed, gets malformed JSON,
 * wrong types, huge strings and an oversized body — anonymously, as a customer and as an admin.
 * None may answer 500; every error is our JSON error shape.
 */
describe.each(BACKENDS)('bad input on every API route (%s)', (backend) => {
  let t: TestApp;
  const clients: Record<string, TestClient> = {};

  beforeAll(async () => {
    t = await startTestApp({ backend });
    clients.anonymous = t.client();
    const customer = t.client();
    await signUpAndIn(customer, {
      email: 'bad-input-customer@example.com',
      password: 'customer-pass-1',
    });
    clients.customer = customer;
    await t.deps.auth.createUser({
      email: 'bad-input-admin@example.com',
      password: 'admin-pass-123',
      role: 'admin',
    });
    const admin = t.client();
    const signIn = await admin.post('/api/auth/sign-in/email', {
      email: 'bad-input-admin@example.com',
      password: 'admin-pass-123',
    });
    expect(signIn.status).toBe(200);
    clients.admin = admin;
  });
  afterAll(async () => {
    await t?.close();
  });

  function apiRoutes() {
    const seen = new Set<string>();
    return t.app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({
        method: r.method,
        path: r.path.replace(/:(\w+)(\{[^}]*\})?/g, '00000000-0000-4000-8000-000000000000'),
      }))
      .filter((r) => {
        const key = `${r.method} ${r.path}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  }

  async function expectNo500(res: Response, label: string) {
    if (res.status === 503) {
      // The one deliberate 5xx: the airdrop preview until the rewards engine exists (a later issue).
      const body = (await res.json()) as { error?: { code?: string } };
      expect({ label, code: body.error?.code }).toEqual({ label, code: 'NOT_CONFIGURED' });
      expect(label).toMatch(/\/api\/admin\/airdrops\/preview/);
      return;
    }
    expect(res.status, label).toBeLessThan(500);
    if (res.status >= 400 && !res.headers.get('content-type')?.includes('text/event-stream')) {
      const body = (await res.json()) as { error?: { code?: string; message?: string } };
      expect(body.error?.code, `${label}: error code`).toEqual(expect.any(String));
      expect(body.error?.message, `${label}: error message`).toEqual(expect.any(String));
    } else {
      await res.body?.cancel();
    }
  }

  const SIGN_OUT = '/api/auth/sign-out';

  it('finds the API routes in the router', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(3);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/auth/sign-in/email');
  });

  const writes = ['POST', 'PUT', 'PATCH', 'DELETE'];
  const payloads: Array<[string, string]> = [
    ['malformed JSON', '{"email": "x@example.com", '],
    ['a JSON array', '[1,2,3]'],
    ['a JSON number', '42'],
    [
      'wrong types',
      JSON.stringify({ email: 12, password: ['x'], id: {}, quantity: 'lots', items: 'none', name: null }),
    ],
    [
      'huge strings',
      JSON.stringify({
        email: `${'a'.repeat(200_000)}@example.com`,
        password: 'p'.repeat(200_000),
        title: 'x'.repeat(200_000),
      }),
    ],
  ];

  for (const who of ['anonymous', 'customer', 'admin']) {
    it(`never answers 500 to ${who}`, async () => {
      const client = clients[who]!;
      for (const route of apiRoutes()) {
        // Signing out here would leave the rest of the routes to an anonymous client.
        if (route.path === SIGN_OUT) continue;
        if (!writes.includes(route.method)) {
          const res = await client.request(
            route.method,
            `${route.path}?topics=${'x'.repeat(5000)}&limit=-1&page=abc`,
          );
          await expectNo500(res, `${who} ${route.method} ${route.path} with odd query`);
          continue;
        }
        for (const [label, body] of payloads) {
          const res = await client.request(route.method, route.path, {
            body,
            headers: { 'content-type': 'application/json' },
          });
          await expectNo500(res, `${who} ${route.method} ${route.path} with ${label}`);
        }
      }
    });
  }

  it('answers 400 naming the field, never 500, to NUL characters in any query or body', async () => {
    const admin = clients.admin!;
    for (const route of apiRoutes()) {
      if (route.path === SIGN_OUT) continue;
      if (!writes.includes(route.method)) {
        if (route.path === '/api/events') continue;
        const res = await admin.request(route.method, `${route.path}?search=a%00b`);
        await expectNo500(res, `${route.method} ${route.path}?search=a%00b`);
        continue;
      }
      const body = JSON.stringify({
        email: 'nul\u0000@example.com',
        password: 'password-\u0000-123',
        name: 'a\u0000b',
        title: 'x\u0000y',
        value: 'v\u0000',
        status: 'read\u0000',
      });
      const res = await admin.request(route.method, route.path, {
        body,
        headers: { 'content-type': 'application/json' },
      });
      await expectNo500(res, `${route.method} ${route.path} with NUL characters`);
    }

    const search = await admin.get('/api/admin/orders?search=a%00b');
    expect(search.status).toBe(400);
    expect(await search.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', fields: { search: expect.any(String) } },
    });
    const signUp = await clients.anonymous!.post('/api/auth/sign-up/email', {
      email: 'nul-name@example.com',
      password: 'customer-pass-1',
      name: 'a\u0000b',
    });
    expect(signUp.status).toBe(400);
    expect(await signUp.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', fields: { name: expect.any(String) } },
    });
  });

  it('keeps the clients signed in while probing, so admin routes are reached as admin', async () => {
    const me = await clients.admin!.get('/api/admin/dashboard');
    expect(me.status).toBe(200);
    await me.body?.cancel();
    const signOut = await clients.customer!.post(SIGN_OUT, { unknown: 'x\u0000' });
    expect(signOut.status).toBeLessThan(500);
    await signOut.body?.cancel();
  });

  it('answers 413 in the error shape to a body over the limit', async () => {
    const res = await clients.anonymous!.request('POST', '/api/auth/sign-in/email', {
      body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers 404 JSON for unknown API routes and 400 naming the field for invalid input', async () => {
    const res = await clients.anonymous!.get('/api/definitely-not-a-route');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });

    const bad = await clients.anonymous!.post('/api/auth/sign-in/email', {
      email: 'not-an-email',
      password: 'x',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', fields: { email: expect.any(String) } },
    });
  });
});
