import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { BACKENDS } from '../helpers/databases';
import {
  createFixtures,
  fillPath,
  freshCustomer,
  paramsFor,
  routesWithoutSample,
  routeTable,
  SAMPLES,
  type Fixtures,
  type RouteEntry,
} from '../helpers/route-table';
import { startTestApp, TEST_ORIGIN, TestClient, type TestApp } from '../helpers/test-app';

/**
 * CSRF, generated from the router: every mutating route refuses what a cross-site attacker's
 * browser can send with the victim's cookies (a customer's and an admin's): a foreign Origin, a form
 * (urlencoded or multipart) or text/plain body, and a request with no content type. The paths in
 * app.ts's CSRF_EXEMPT skip the Origin rule only, each for the reason SAMPLES states; the
 * content-type rule holds for them too.
 */

const EVIL_ORIGIN = 'https://evil.example';

async function codeOf(res: Response): Promise<string | undefined> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as Partial<ErrorBody>).error?.code;
  } catch {
    return undefined;
  }
}

describe.each(BACKENDS)('CSRF on every mutating route (%s)', (backend) => {
  let t: TestApp;
  let fx: Fixtures;
  let routes: RouteEntry[];
  let victims: Array<[string, TestClient]>;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' } });
    fx = await createFixtures(t);
    routes = routeTable(t.app).filter((r) => r.mutating && r.path.startsWith('/api/'));
    victims = [
      ['customer', fx.customer],
      ['admin', fx.admin],
    ];
  });
  afterAll(async () => {
    await t?.close();
  });

  const urlOf = (route: RouteEntry) => fillPath(route.path, paramsFor(route, fx));
  const bodyOf = (route: RouteEntry) => JSON.stringify(SAMPLES[route.key]?.body?.(fx) ?? {});

  it('reads the mutating routes from the router, better-auth sign-in, sign-up and sign-out among them', () => {
    const keys = routes.map((r) => r.key);
    expect(keys.length).toBeGreaterThan(30);
    for (const key of [
      'POST /api/auth/sign-in/email',
      'POST /api/auth/sign-up/email',
      'POST /api/auth/sign-out',
      'POST /api/uploads',
      'POST /api/webhooks/stripe',
    ])
      expect(keys).toContain(key);
    expect(routesWithoutSample(routeTable(t.app)), 'mutating routes with no entry in SAMPLES').toEqual([]);
    // Outside /api the only write is the local ledger's JSON-RPC, which reads no cookie at all.
    const outside = routeTable(t.app).filter((r) => r.mutating && !r.path.startsWith('/api/'));
    expect(outside.map((r) => [r.key, Boolean(SAMPLES[r.key]?.noCookieAuthority)])).toEqual([
      ['POST /local-chain', true],
    ]);
  });

  it('refuses a foreign Origin (403 CSRF_REJECTED) except on the exempt paths, which say why', async () => {
    for (const route of routes) {
      const exempt = SAMPLES[route.key]?.originExempt;
      for (const [who, client] of victims) {
        const attempts: Array<Record<string, string>> = [
          { origin: EVIL_ORIGIN },
          { origin: EVIL_ORIGIN, 'sec-fetch-site': 'cross-site' },
          // A sandboxed frame or a redirect: the browser says "null".
          { origin: 'null' },
        ];
        for (const headers of attempts) {
          const res = await client.request(route.method, urlOf(route), {
            headers: { ...headers, 'content-type': 'application/json' },
            body: bodyOf(route),
          });
          const label = `${who} ${route.key} from ${headers.origin}`;
          if (exempt) {
            expect(res.status, label).not.toBe(500);
            expect(await codeOf(res), label).not.toBe('CSRF_REJECTED');
          } else {
            expect(res.status, label).toBe(403);
            expect(await codeOf(res), label).toBe('CSRF_REJECTED');
          }
        }
      }
    }
    // Exactly the paths app.ts exempts, no more.
    expect(routes.filter((r) => SAMPLES[r.key]?.originExempt).map((r) => r.key)).toEqual([
      'POST /api/solana-pay/payments/:reference',
      'POST /api/solana-pay/refunds/:id',
      'POST /api/solana-pay/token-purchases/:reference',
      'POST /api/webhooks/stripe',
    ]);
  });

  it('refuses form, multipart and text/plain bodies, from any origin (415 UNSUPPORTED_MEDIA_TYPE)', async () => {
    for (const route of routes) {
      for (const [who, client] of victims) {
        const sample = SAMPLES[route.key]?.body?.(fx) ?? {};
        const form = new FormData();
        const fields = new URLSearchParams();
        for (const [k, v] of Object.entries(sample as Record<string, unknown>)) {
          form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
          fields.append(k, typeof v === 'string' ? v : JSON.stringify(v));
        }
        const bodies: Array<[string, BodyInit, Record<string, string>]> = [
          ['urlencoded', fields.toString(), { 'content-type': 'application/x-www-form-urlencoded' }],
          // fetch sets multipart/form-data with its boundary itself.
          ['multipart', form, {}],
          // The classic JSON-in-a-text/plain-form trick.
          ['text/plain', bodyOf(route), { 'content-type': 'text/plain;charset=UTF-8' }],
        ];
        for (const origin of [EVIL_ORIGIN, TEST_ORIGIN]) {
          for (const [kind, body, headers] of bodies) {
            const res = await client.request(route.method, urlOf(route), {
              headers: { ...headers, origin },
              body,
            });
            const label = `${who} ${route.key}: ${kind} from ${origin}`;
            expect(res.status, label).toBe(415);
            expect(await codeOf(res), label).toBe('UNSUPPORTED_MEDIA_TYPE');
          }
        }
      }
    }
  });

  it('refuses a write with no content type, bodiless or not (415 UNSUPPORTED_MEDIA_TYPE)', async () => {
    for (const route of routes) {
      for (const [who, client] of victims) {
        for (const [kind, body] of [
          ['no body', undefined],
          // Bytes, so that nothing fills the content type in.
          ['JSON bytes', new TextEncoder().encode(bodyOf(route))],
        ] as const) {
          const headers = new Headers({ origin: TEST_ORIGIN });
          const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
          headers.set('cookie', cookie);
          const res = await t.app.request(urlOf(route), { method: route.method, headers, body });
          const label = `${who} ${route.key}: ${kind}`;
          expect(res.headers.get('content-type'), label).toMatch(/json/);
          expect(res.status, label).toBe(415);
          expect(await codeOf(res), label).toBe('UNSUPPORTED_MEDIA_TYPE');
        }
      }
    }
  });

  it("lets the shop's own pages through: JSON from the trusted origin passes both rules on every route", async () => {
    const png = new Uint8Array(
      await sharp({ create: { width: 40, height: 40, channels: 3, background: '#e11d48' } })
        .png()
        .toBuffer(),
    );
    // Deletes last, so the rows the other routes point at are still there.
    const ordered = [...routes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const route of ordered) {
      const sample = SAMPLES[route.key]!;
      const client =
        sample.who === 'admin'
          ? fx.admin
          : sample.who === 'customer'
            ? sample.endsSession
              ? await freshCustomer(t)
              : fx.customer
            : t.client();
      const res =
        route.key === 'POST /api/uploads'
          ? await client.request('POST', urlOf(route), { body: new Blob([png], { type: 'image/png' }) })
          : await client.request(route.method, urlOf(route), sample.body ? { json: sample.body(fx) } : {});
      const code = await codeOf(res);
      expect(res.status, `${route.key}: ${code}`).toBeLessThan(500);
      expect([`${route.key}`, code]).not.toEqual([route.key, 'CSRF_REJECTED']);
      expect([`${route.key}`, code]).not.toEqual([route.key, 'UNSUPPORTED_MEDIA_TYPE']);
      // A bodiless write declares JSON; its empty body is no malformed JSON.
      expect([`${route.key}`, code]).not.toEqual([route.key, 'BAD_JSON']);
    }
  });
});

describe.each(BACKENDS)("CSRF: the shop opened at another address than PUBLIC_URL's (%s)", (backend) => {
  let t: TestApp;
  const LAN = 'http://192.168.1.20:3000';

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { TRUSTED_PROXIES: '10.0.0.5' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const signUp = (client: TestClient, origin: string, url = `${LAN}/api/auth/sign-up/email`, headers = {}) =>
    client.request('POST', url, {
      headers: { origin, ...headers },
      json: {
        email: `lan-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'a-long-password-1',
        name: 'Lan',
      },
    });

  it('accepts a write whose Origin is the address the request was made to (127.0.0.1, a LAN address), sign-up included', async () => {
    const client = t.client();
    const res = await signUp(client, LAN);
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    // Signed in by that sign-up, a write of the account at the same address passes too.
    const ticket = await client.request('POST', `${LAN}/api/tickets`, {
      headers: { origin: LAN },
      json: { subject: 'Order question', description: 'Where is my order?', priority: 'normal' },
    });
    expect(await codeOf(ticket)).not.toBe('CSRF_REJECTED');
    const local = await signUp(
      t.client(),
      'http://127.0.0.1:3000',
      'http://127.0.0.1:3000/api/auth/sign-up/email',
    );
    expect(local.status).toBeLessThan(300);
  });

  it('still refuses another origin at that address, and a forwarded host from a peer that is not a trusted proxy', async () => {
    expect(await codeOf(await signUp(t.client(), EVIL_ORIGIN))).toBe('CSRF_REJECTED');
    const forged = await signUp(t.client(), EVIL_ORIGIN, undefined, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(await codeOf(forged)).toBe('CSRF_REJECTED');
    // Behind the trusted proxy, the forwarded host and scheme are the address the browser used.
    const proxied = await signUp(
      new TestClient(t.app, '10.0.0.5'),
      'https://shop.example',
      'http://10.0.0.9:3000/api/auth/sign-up/email',
      {
        'x-forwarded-host': 'shop.example',
        'x-forwarded-proto': 'https',
      },
    );
    expect(proxied.status, await proxied.clone().text()).toBeLessThan(300);
    const notProxy = await signUp(
      new TestClient(t.app, '10.0.0.6'),
      'https://shop.example',
      'http://10.0.0.9:3000/api/auth/sign-up/email',
      {
        'x-forwarded-host': 'shop.example',
        'x-forwarded-proto': 'https',
      },
    );
    expect(await codeOf(notProxy)).toBe('CSRF_REJECTED');
  });

  it('names PUBLIC_URL and TRUSTED_ORIGINS in a refusal in development, and nothing more in production', async () => {
    const dev = await startTestApp({ backend, env: { NODE_ENV: 'development' } });
    try {
      const res = await signUp(dev.client(), EVIL_ORIGIN);
      const body = (await res.json()) as ErrorBody;
      expect(body.error.code).toBe('CSRF_REJECTED');
      expect(body.error.message).toContain('https://evil.example');
      expect(body.error.message).toContain('PUBLIC_URL');
      expect(body.error.message).toContain('TRUSTED_ORIGINS');
    } finally {
      await dev.close();
    }
    const res = await signUp(t.client(), EVIL_ORIGIN);
    expect(((await res.json()) as ErrorBody).error.message).toBe('Cross-site request refused');
  });
});

describe.each(BACKENDS)('route forms behind a TLS-terminating proxy (%s)', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    // As deploy/ runs it: PUBLIC_URL over https, the proxy on this machine.
    t = await startTestApp({
      backend,
      env: { PUBLIC_URL: 'https://shop.example', TRUSTED_PROXIES: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  // The proxy connects over http to the instance's own address and says how the browser came.
  const proxied = {
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'shop.example',
    'x-forwarded-for': '203.0.113.7',
  };
  const form = (message: string) =>
    new URLSearchParams({ name: 'Robin', email: 'robin@example.com', orderNumber: '', message });

  it("takes a page form posted from the https address (the document post and the app's data post)", async () => {
    const proxy = new TestClient(t.app, '127.0.0.1');
    for (const [url, message] of [
      ['http://127.0.0.1:3000/contact', 'Posted before the code came.'],
      ['http://127.0.0.1:3000/contact.data', 'Posted by the live page.'],
    ] as const) {
      const res = await proxy.request('POST', url, {
        headers: {
          ...proxied,
          origin: 'https://shop.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form(message).toString(),
      });
      // React Router refuses an action whose Origin is not its request's (400 "Bad Request").
      expect(res.status, `${url}: ${await res.clone().text()}`).toBe(200);
      const landed = await t.deps.database.db
        .selectFrom('messages')
        .select('content')
        .where('content', '=', message)
        .executeTakeFirst();
      expect(landed, url).toBeDefined();
    }
  });

  it('still refuses that post from another origin, and forwarded headers from a peer that is no proxy', async () => {
    const proxy = new TestClient(t.app, '127.0.0.1');
    const evil = await proxy.request('POST', 'http://127.0.0.1:3000/contact', {
      headers: { ...proxied, origin: EVIL_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: form('From elsewhere.').toString(),
    });
    expect(evil.status).toBeGreaterThanOrEqual(400);
    // React Router refuses the next one itself (the https Origin is not its request's, which a
    // peer that is no proxy cannot move) and says so on the console.
    const refusedByRouter: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      refusedByRouter.push(args.map(String).join(' '));
    });
    const stranger = new TestClient(t.app, '10.9.9.9');
    const spoofed = await stranger.request('POST', 'http://127.0.0.1:3000/contact', {
      headers: {
        ...proxied,
        origin: 'https://shop.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form('Spoofed proxy headers.').toString(),
    });
    // Not from the proxy: its request is at http://127.0.0.1:3000, which the https Origin is not.
    expect(spoofed.status).toBe(400);
    expect(refusedByRouter.join('\n')).toMatch(/origin does not match/);
    const none = await t.deps.database.db
      .selectFrom('messages')
      .select('id')
      .where('content', 'in', ['From elsewhere.', 'Spoofed proxy headers.'])
      .execute();
    expect(none).toEqual([]);
  });
});
