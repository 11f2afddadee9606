import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { getRequestListener } from '@hono/node-server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRODUCT_PAGE_SIZE } from '#common/catalog-query';
import type { CheckoutResponse } from '#common/schemas/checkout';
import type { Product, ProductPage } from '#common/schemas/product';
import { createApp } from '#server/app';
import type { Db } from '#server/db/client';
import { createLogger, flushAccessLogs } from '#server/lib/logger';
import { createProduct } from '../factories/product';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients } from './admin-test-kit';
import { SHIPPING_INFO } from '../factories/order';

/**
 * The catalogue's prepared answers (issue 15): the product list and a product are bytes made once
 * and served with a strong ETag until something that can change them happens; then every instance
 * drops them at once. Changes are waited for less than the cache's 1 s backstop, so these tests
 * see the change notices at work, not the backstop (the last test sees the backstop alone).
 */

/** Shorter than the cache's 1 s backstop: a change must arrive through its notice. */
const NOTICE_WAIT_MS = 800;

const SECURITY_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'permissions-policy',
];

function expectSecurityHeaders(res: Response) {
  for (const name of SECURITY_HEADERS) expect(res.headers.get(name), name).toBeTruthy();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

describe.each(BACKENDS)('catalogue cache (%s)', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;
  let c: AdminClients;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: stripeEnv(fake),
    });
    db = t.deps.database.db;
    c = await signInClients(t);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Products made by the factory write no live event: tell the cache as a writer's event would. */
  const newProduct = async (overrides: Parameters<typeof createProduct>[1]) => {
    const product = await createProduct(db, {
      sizes: ['M'],
      colors: ['Black'],
      sizeGuide: null,
      ...overrides,
    });
    t.deps.catalog.invalidate();
    return product;
  };
  const list = async (headers: Record<string, string> = {}) => {
    const res = await t.client().get('/api/products', { headers });
    return { res, text: await res.text() };
  };
  const listed = (text: string, id: string) =>
    (JSON.parse(text) as ProductPage).products.find((p) => p.id === id);
  /** Waits (less than the backstop) until the list's ETag moves and `check` holds of the new list. */
  const listChanges = (before: string, check: (text: string) => boolean) =>
    expect
      .poll(
        async () => {
          const { res, text } = await list();
          return res.headers.get('etag') !== before && check(text);
        },
        { timeout: NOTICE_WAIT_MS, interval: 20 },
      )
      .toBe(true);

  it('answers the list with a strong ETag and the bytes of an uncached render, 304 without a body when current', async () => {
    // Enough products for a list worth compressing (1 KB and more).
    for (const title of ['Cache Probe Tee', 'Cache Probe Tank', 'Cache Probe Shorts'])
      await newProduct({ title });
    const first = await list();
    expect(first.res.status).toBe(200);
    const etag = first.res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.res.headers.get('vary')).toMatch(/accept-encoding/i);
    expectSecurityHeaders(first.res);
    // The cached bytes are what the database says now.
    expect(first.text).toBe(JSON.stringify(await t.deps.catalog.listProducts({})));
    const again = await list();
    expect(again.text).toBe(first.text);
    expect(again.res.headers.get('etag')).toBe(etag);

    const revalidated = await list({ 'if-none-match': etag });
    expect(revalidated.res.status).toBe(304);
    expect(revalidated.text).toBe('');
    expect(revalidated.res.headers.get('etag')).toBe(etag);
    expectSecurityHeaders(revalidated.res);
    expect((await list({ 'if-none-match': `W/${etag}` })).res.status).toBe(304);
    expect((await list({ 'if-none-match': '"something-else"' })).res.status).toBe(200);

    // Compressed forms: made once, their own strong tag, the same JSON inside.
    const brRes = await t.client().get('/api/products', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(brRes.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await brRes.arrayBuffer())).toString('utf8')).toBe(first.text);
    const brTag = brRes.headers.get('etag')!;
    expect(brTag).toBe(`${etag.slice(0, -1)}-br"`);
    const gzRes = await t.client().get('/api/products', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzRes.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzRes.arrayBuffer())).toString('utf8')).toBe(first.text);
    const brRevalidated = await t
      .client()
      .get('/api/products', { headers: { 'accept-encoding': 'br', 'if-none-match': brTag } });
    expect(brRevalidated.status).toBe(304);
    expect(brRevalidated.headers.get('etag')).toBe(brTag);

    // A filtered page and a product are prepared the same way.
    const page = await list();
    const product = (JSON.parse(page.text) as ProductPage).products[0]!;
    const one = await t.client().get(`/api/products/${product.id}`);
    const oneText = await one.text();
    expect(oneText).toBe(JSON.stringify(await t.deps.catalog.getProduct(product.id)));
    const oneTag = one.headers.get('etag')!;
    const oneAgain = await t
      .client()
      .get(`/api/products/${product.id}`, { headers: { 'if-none-match': oneTag } });
    expect(oneAgain.status).toBe(304);
    expectSecurityHeaders(oneAgain);
    expect((await t.client().get('/api/products/not-a-product')).status).toBe(404);
  });

  it("changes at once when an admin edits a product's price or title", async () => {
    const product = await newProduct({ title: 'Editable Leggings', priceCents: 4_000 });
    const before = await list();
    const productBefore = await t.client().get(`/api/products/${product.id}`);
    expect(listed(before.text, product.id)).toMatchObject({ priceCents: 4_000 });

    await json<Product>(await c.admin.patch(`/api/admin/products/${product.id}`, { priceCents: 3_250 }), 200);
    await listChanges(
      before.res.headers.get('etag')!,
      (text) => listed(text, product.id)?.priceCents === 3_250,
    );
    const productAfter = await t.client().get(`/api/products/${product.id}`, {
      headers: { 'if-none-match': productBefore.headers.get('etag')! },
    });
    expect(productAfter.status).toBe(200);
    expect(((await productAfter.json()) as Product).priceCents).toBe(3_250);

    const mid = await list();
    await json<Product>(
      await c.admin.patch(`/api/admin/products/${product.id}`, { title: 'Editable Leggings II' }),
      200,
    );
    await listChanges(
      mid.res.headers.get('etag')!,
      (text) => listed(text, product.id)?.title === 'Editable Leggings II',
    );
    // The browser's copy from before the edit is not current any more.
    expect((await list({ 'if-none-match': mid.res.headers.get('etag')! })).res.status).toBe(200);
  });

  it('shows the last unit sold out while a checkout holds it, and back when the hold is released', async () => {
    const product = await newProduct({ title: 'Last Unit Hoodie', quantity: 1 });
    const before = await list();
    expect(listed(before.text, product.id)).toMatchObject({ quantity: 1 });

    const res = await t.client().post('/api/checkout', {
      items: [{ productId: product.id, size: 'M', color: 'Black', quantity: 1 }],
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const checkout = (await res.json()) as CheckoutResponse;
    await listChanges(before.res.headers.get('etag')!, (text) => listed(text, product.id)?.quantity === 0);

    const held = await list();
    const cancelled = await t.client().post(`/api/payments/${checkout.reference}/cancel`);
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    await listChanges(held.res.headers.get('etag')!, (text) => listed(text, product.id)?.quantity === 1);
  });

  it('a second instance on the same database drops its copy when the first one changes a product', async () => {
    // PostgreSQL: its own pool and LISTEN connection on the same database, as a second server
    // would have. PGlite is one process: the second app shares the in-process database.
    const url = t.deps.config.databaseUrl;
    const other = url
      ? await startTestApp({ backend, scratch: { url, drop: async () => undefined } })
      : await startTestApp({ backend, database: t.deps.database });
    try {
      const product = await newProduct({ title: 'Two Instance Bra', priceCents: 2_800 });
      other.deps.catalog.invalidate();
      const before = await other.client().get('/api/products');
      const beforeTag = before.headers.get('etag')!;
      expect(listed(await before.text(), product.id)).toMatchObject({ priceCents: 2_800 });

      await json<Product>(
        await c.admin.patch(`/api/admin/products/${product.id}`, { priceCents: 2_100 }),
        200,
      );
      await expect
        .poll(
          async () => {
            const res = await other.client().get('/api/products');
            return (
              res.headers.get('etag') !== beforeTag &&
              listed(await res.text(), product.id)?.priceCents === 2_100
            );
          },
          { timeout: NOTICE_WAIT_MS, interval: 20 },
        )
        .toBe(true);
    } finally {
      await other.close();
    }
  });

  it('reads anonymously without looking up a session; a signed-in customer reads the same bytes', async () => {
    const product = await newProduct({ title: 'Sessionless Shorts' });
    const lookups = vi.spyOn(t.deps.auth, 'getSessionUser');
    const anonymous = await list();
    await list({ 'if-none-match': anonymous.res.headers.get('etag')! });
    await t.client().get(`/api/products/${product.id}`);
    await t.client().get(`/api/products?gender=${product.gender}&sort=price-asc`);
    expect(lookups).not.toHaveBeenCalled();

    const signedIn = await c.customer.get('/api/products');
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toBe(anonymous.text);
    // The customer's session still works where one is needed.
    const orders = await c.customer.get('/api/orders');
    expect(orders.status).toBe(200);
    expect(lookups).toHaveBeenCalled();
    lookups.mockRestore();
  });

  it('outlives a lost change notice: a write that told nobody shows within about a second', async () => {
    const product = await newProduct({ title: 'Silent Change Cap', priceCents: 1_500 });
    const before = await list();
    expect(listed(before.text, product.id)).toMatchObject({ priceCents: 1_500 });
    // As if the writer died between its commit and its NOTIFY.
    await sql`update products set price_cents = 1400 where id = ${product.id}`.execute(db);
    await expect
      .poll(
        async () => {
          const { res, text } = await list();
          return (
            res.headers.get('etag') !== before.res.headers.get('etag') &&
            listed(text, product.id)?.priceCents === 1_400
          );
        },
        { timeout: 4_000, interval: 20 },
      )
      .toBe(true);
  });
});

interface Answer {
  status: number;
  /** Every header as sent, lower-cased, sorted; Date and the request id apart. */
  headers: Array<[string, string]>;
  requestId: string | undefined;
  body: Buffer;
}

/** One request over HTTP/1.1, the answer as it travels (no decoding). */
function ask(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        let requestId: string | undefined;
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          const value = res.rawHeaders[i + 1]!;
          if (name === 'x-request-id') requestId = value;
          else if (name !== 'date') pairs.push([name, value]);
        }
        pairs.sort(([a], [b]) => a.localeCompare(b));
        resolve({ status: res.statusCode ?? 0, headers: pairs, requestId, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const headerOf = (answer: Answer, name: string) => answer.headers.find(([n]) => n === name)?.[1];

/**
 * The product list as the shop serves it: the Hono route through every middleware, behind
 * @hono/node-server's listener as main.ts runs it (one HTTP pipeline, issue 39). What the second
 * listener once did by hand is the route's and the middleware's: the prepared bytes with their
 * ETag, 304, encodings, security headers, request id and access log line.
 */
describe.each(BACKENDS)('catalogue list over HTTP (%s)', (backend) => {
  let t: TestApp;
  let server: Server;
  let base: string;
  const logged: string[] = [];

  beforeAll(async () => {
    warnIfPostgresSkipped();
    t = await startTestApp({ backend });
    // Enough products for a list worth compressing (1 KB and more).
    for (const title of ['Wire Tee', 'Wire Tank', 'Wire Shorts', 'Wire Hoodie']) {
      await createProduct(t.deps.database.db, { title, sizes: ['M'], colors: ['Black'], sizeGuide: null });
    }
    t.deps.catalog.invalidate();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    // The same app with a logger at info (the test app's logs errors only), as the shop runs.
    const app = createApp({ ...t.deps, logger: createLogger('info', sink) });
    const listener = getRequestListener(app.fetch);
    server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  it('sends the prepared bytes with their ETag, the security headers and a request id; the same again from the cache', async () => {
    const first = await ask(base, '/api/products', { accept: 'application/json' });
    expect(first.status).toBe(200);
    expect(first.body.toString('utf8')).toBe(JSON.stringify(await t.deps.catalog.listProducts({})));
    const etag = headerOf(first, 'etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Object.fromEntries(first.headers)).toMatchObject({
      'cache-control': 'no-cache',
      'content-type': 'application/json',
      'content-length': String(first.body.length),
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=()',
    });
    expect(headerOf(first, 'content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headerOf(first, 'content-encoding')).toBeUndefined();
    expect(headerOf(first, 'x-powered-by')).toBeUndefined();
    expect(first.requestId).toMatch(/^[0-9a-f-]{36}$/);

    // From the cache: the same status, headers and bytes; a fresh request id.
    const again = await ask(base, '/api/products', { accept: 'application/json' });
    expect({ ...again, requestId: undefined }).toEqual({ ...first, requestId: undefined });
    expect(again.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.requestId).not.toBe(first.requestId);
    // A caller's own request id is kept; one that is not a plain token is replaced.
    expect((await ask(base, '/api/products', { 'x-request-id': 'trace-42' })).requestId).toBe('trace-42');
    expect((await ask(base, '/api/products', { 'x-request-id': 'no spaces' })).requestId).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it('answers 304 without a body on a matching If-None-Match, with the same headers otherwise', async () => {
    const plain = await ask(base, '/api/products');
    const etag = headerOf(plain, 'etag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const revalidated = await ask(base, '/api/products', { 'if-none-match': ifNoneMatch });
      expect(revalidated.status, ifNoneMatch).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(revalidated.requestId).toBeTruthy();
      // The 304 carries what the 200 does but the body's own headers.
      const bodyHeaders = new Set(['content-type', 'content-length']);
      expect(revalidated.headers).toEqual(plain.headers.filter(([name]) => !bodyHeaders.has(name)));
    }
    expect((await ask(base, '/api/products', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('sends the encoding Accept-Encoding picks, each with its own ETag, made once', async () => {
    const plain = await ask(base, '/api/products');
    const etag = headerOf(plain, 'etag')!;
    const cases = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=1', 'gzip'],
      ['identity', undefined],
    ] as const;
    for (const [acceptEncoding, expected] of cases) {
      // The first may wait for the compressed form to be made; the second is served from it.
      for (const _ of [1, 2]) {
        const answer = await ask(base, '/api/products', { 'accept-encoding': acceptEncoding });
        expect(answer.status, acceptEncoding).toBe(200);
        expect(headerOf(answer, 'content-encoding'), acceptEncoding).toBe(expected);
        expect(headerOf(answer, 'vary')).toBe('Accept-Encoding');
        expect(headerOf(answer, 'content-length')).toBe(String(answer.body.length));
        const json =
          expected === 'br'
            ? brotliDecompressSync(answer.body)
            : expected === 'gzip'
              ? gunzipSync(answer.body)
              : answer.body;
        expect(json.equals(plain.body), acceptEncoding).toBe(true);
        const tag = headerOf(answer, 'etag')!;
        expect(tag).toBe(expected ? `${etag.slice(0, -1)}-${expected}"` : etag);
        const revalidated = await ask(base, '/api/products', {
          'accept-encoding': acceptEncoding,
          'if-none-match': tag,
        });
        expect(revalidated.status, acceptEncoding).toBe(304);
        expect(headerOf(revalidated, 'etag')).toBe(tag);
      }
    }
  });

  it('writes one access log line per answer, with its request id', async () => {
    flushAccessLogs();
    logged.length = 0;
    const answers = [
      await ask(base, '/api/products'),
      await ask(base, '/api/products?limit=2'),
      await ask(base, '/api/products', { 'if-none-match': '*' }),
      await ask(base, '/api/products?limit=0'),
    ];
    flushAccessLogs();
    expect(logged.map((line) => JSON.parse(line) as unknown)).toEqual(
      answers.map((answer) => ({
        level: 30,
        time: expect.any(Number),
        reqId: answer.requestId,
        method: 'GET',
        path: '/api/products',
        status: answer.status,
        ms: expect.any(Number),
        msg: 'request',
      })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 304, 400]);
  });

  it('answers each query as the validator reads it, every time; an invalid one is a 400 every time', async () => {
    for (const query of ['?limit=2', '?sort=price-asc&limit=3', '?gender=all&limit=1', '?', '']) {
      const first = await ask(base, `/api/products${query}`);
      expect(first.status, query).toBe(200);
      const again = await ask(base, `/api/products${query}`);
      expect(again.body.equals(first.body), query).toBe(true);
      const page = JSON.parse(first.body.toString('utf8')) as ProductPage;
      const limit = Number(new URLSearchParams(query).get('limit') ?? PRODUCT_PAGE_SIZE);
      expect(page.products.length, query).toBe(Math.min(limit, page.total));
    }
    for (const query of [
      '?limit=0',
      '?limit=2&limit=3',
      '?gender=nobody',
      '?cursor=not%20a%20cursor',
      '?cursor=abc',
      '?sort=%00',
      '?limit=%zz',
      "?gender='men'",
    ]) {
      for (const _ of [1, 2]) {
        const answer = await ask(base, `/api/products${query}`);
        expect(answer.status, query).toBe(400);
        expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({
          error: { code: 'VALIDATION_FAILED' },
        });
      }
    }
  });

  it('serves no page the cache dropped: after a change the next answer is loaded again', async () => {
    const before = await ask(base, '/api/products');
    const product = await createProduct(t.deps.database.db, {
      title: 'Wire Late Arrival',
      sizes: ['M'],
      colors: ['Black'],
      sizeGuide: null,
    });
    t.deps.catalog.invalidate();
    const after = await ask(base, '/api/products');
    expect(after.body.toString('utf8')).toContain(product.id);
    expect(headerOf(after, 'etag')).not.toBe(headerOf(before, 'etag'));
  });
});
