import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '#server/lib/logger';
import { createShopListener } from '#server/listener';
import { createProduct } from '../factories/product';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The product list's fast path (modules/catalog/catalog-listener.ts): the shop's real listener
 * (src/server/listener.ts, as main.ts serves it) must answer exactly as the Hono app alone does
 * (status, every header but Date and the request id, body) for cache hits, 304s, misses, compressed
 * forms and bad queries, and must really answer the hits itself (the app's fetch is not called).
 */

interface Answer {
  status: number;
  headers: Array<[string, string]>;
  requestId: string | undefined;
  body: Buffer;
}

function ask(base: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
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
        pairs.sort(([a, x], [b, y]) => (a === b ? x.localeCompare(y) : a.localeCompare(b)));
        resolve({ status: res.statusCode ?? 0, headers: pairs, requestId, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

describe.each(BACKENDS)('catalogue list at the listener (%s)', (backend) => {
  let t: TestApp;
  let shop: Server;
  let honoOnly: Server;
  let shopUrl: string;
  let honoUrl: string;
  let fetchSpy: ReturnType<typeof vi.fn>;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    t = await startTestApp({ backend });
    // Enough products for a list worth compressing (1 KB and more).
    for (const title of ['Listener Tee', 'Listener Tank', 'Listener Shorts', 'Listener Hoodie']) {
      await createProduct(t.deps.database.db, { title, sizes: ['M'], colors: ['Black'], sizeGuide: null });
    }
    t.deps.catalog.invalidate();
    const appFetch = t.app.fetch;
    fetchSpy = vi.fn((...args: Parameters<typeof appFetch>) => appFetch(...args));
    shop = createServer(createShopListener({ fetch: fetchSpy } as unknown as typeof t.app, t.deps));
    const honoListener = getRequestListener(appFetch);
    honoOnly = createServer((req, res) => void honoListener(req, res));
    [shopUrl, honoUrl] = await Promise.all([listen(shop), listen(honoOnly)]);
    // The listener reads the API's security headers from their middleware once, at its start.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(async () => {
    await Promise.all([close(shop), close(honoOnly)]);
    await t?.close();
  });

  /** The same request to the shop's listener and to the Hono app alone; whether Hono saw the first. */
  const both = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    fetchSpy.mockClear();
    const fast = await ask(shopUrl, path, headers, method);
    const viaHono = fetchSpy.mock.calls.length > 0;
    const hono = await ask(honoUrl, path, headers, method);
    expect({ ...fast, requestId: undefined }).toEqual({ ...hono, requestId: undefined });
    expect(fast.requestId).toBeTruthy();
    return { fast, hono, viaHono };
  };

  it('answers a cached page itself, with the same status, headers and bytes as the route', async () => {
    const miss = await both('/api/products');
    expect(miss.fast.status).toBe(200);
    expect(miss.viaHono).toBe(true);

    const hit = await both('/api/products', { accept: 'application/json' });
    expect(hit.viaHono).toBe(false);
    expect(hit.fast.body.equals(miss.fast.body)).toBe(true);
    const names = hit.fast.headers.map(([name]) => name);
    for (const name of ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'etag'])
      expect(names).toContain(name);
    // Request ids: a fresh one per answer, a caller's own kept (as hono/request-id does).
    expect(hit.fast.requestId).not.toBe(miss.fast.requestId);
    const mine = await ask(shopUrl, '/api/products', { 'x-request-id': 'trace-42' });
    expect(mine.requestId).toBe('trace-42');
    const bad = await ask(shopUrl, '/api/products', { 'x-request-id': 'no spaces' });
    expect(bad.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes the access log line for the pages it answers', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logged = createServer(createShopListener(t.app, { ...t.deps, logger: createLogger('info', sink) }));
    const url = await listen(logged);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await both('/api/products');
      const answer = await ask(url, '/api/products');
      expect(answer.status).toBe(200);
      // The lines of a turn of the event loop are written at its end.
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
        {
          level: 30,
          time: expect.any(Number),
          reqId: answer.requestId,
          method: 'GET',
          path: '/api/products',
          status: 200,
          ms: expect.any(Number),
          msg: 'request',
        },
      ]);
    } finally {
      await close(logged);
    }
  });

  it('answers 304 and compressed forms as the route does, once they are made', async () => {
    const plain = await both('/api/products');
    const etag = plain.fast.headers.find(([name]) => name === 'etag')![1];
    const notModified = await both('/api/products', { 'if-none-match': etag });
    expect(notModified.fast.status).toBe(304);
    expect(notModified.fast.body.length).toBe(0);
    expect(notModified.viaHono).toBe(false);
    expect((await both('/api/products', { 'if-none-match': `W/${etag}, "other"` })).fast.status).toBe(304);
    expect((await both('/api/products', { 'if-none-match': '"other"' })).fast.status).toBe(200);

    for (const acceptEncoding of ['gzip, deflate, br', 'gzip', 'identity', 'br;q=0, gzip;q=1']) {
      // The first asks Hono, which compresses; from then on the listener has the bytes.
      await both('/api/products', { 'accept-encoding': acceptEncoding });
      const hit = await both('/api/products', { 'accept-encoding': acceptEncoding });
      expect(hit.viaHono).toBe(false);
      const tag = hit.fast.headers.find(([name]) => name === 'etag')![1];
      const revalidated = await both('/api/products', {
        'accept-encoding': acceptEncoding,
        'if-none-match': tag,
      });
      expect(revalidated.fast.status).toBe(304);
    }
    const br = await both('/api/products', { 'accept-encoding': 'br' });
    expect(br.fast.headers).toContainEqual(['content-encoding', 'br']);
  });

  it('remembers valid queries, and leaves misses, bad queries, other paths and methods to Hono', async () => {
    for (const query of ['?limit=2', '?sort=price-asc&limit=3', '?gender=all&limit=1', '?']) {
      const miss = await both(`/api/products${query}`);
      expect(miss.fast.status, query).toBe(200);
      const hit = await both(`/api/products${query}`);
      expect(hit.viaHono, query).toBe(false);
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
      const answer = await both(`/api/products${query}`);
      expect(answer.fast.status, query).toBe(400);
      expect(answer.viaHono, query).toBe(true);
      // Still Hono's the second time: an invalid query is never answered from the cache.
      expect((await both(`/api/products${query}`)).viaHono, query).toBe(true);
    }
    for (const [path, method] of [
      ['/api/products/', 'GET'],
      ['/api/productsx', 'GET'],
      ['/api/products', 'HEAD'],
      ['/api/products', 'POST'],
    ] as const) {
      const answer = await both(path, { 'content-type': 'application/json' }, method);
      expect(answer.viaHono, `${method} ${path}`).toBe(true);
    }
  });

  it('serves no page the cache dropped: after a change the next answer is loaded again', async () => {
    await both('/api/products');
    expect((await both('/api/products')).viaHono).toBe(false);
    const product = await createProduct(t.deps.database.db, {
      title: 'Listener Late Arrival',
      sizes: ['M'],
      colors: ['Black'],
      sizeGuide: null,
    });
    t.deps.catalog.invalidate();
    const after = await both('/api/products');
    expect(after.viaHono).toBe(true);
    expect(after.fast.body.toString('utf8')).toContain(product.id);
    expect((await both('/api/products')).viaHono).toBe(false);
  });
});
