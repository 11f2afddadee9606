import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { CheckoutResponse } from '#common/schemas/checkout';
import type { Product } from '#common/schemas/product';
import { NONCE_PLACEHOLDER } from '#server/modules/pages/page-cache';
import { createProduct } from '../factories/product';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, LIVE_WAIT, signInClients, type AdminClients } from './admin-test-kit';
import { SHIPPING_INFO } from '../factories/order';

/**
 * The cache of anonymous storefront pages (issue 15, src/server/modules/pages/page-cache.ts): a
 * page rendered once is served again with a fresh CSP nonce, follows the catalogue as its JSON
 * cache does, and never holds anything but the whole page every anonymous visitor gets. Needs the
 * built web app (`npm run build`: dist/web/server/index.js), which the pages handler renders with.
 */

/** Shorter than the catalogue cache's 1 s backstop: a change must arrive through its notice. */
const NOTICE_WAIT_MS = 800;
const RETURNING = { cookie: 'aelo-disclaimer-accepted=true; aelo-cookie-consent=true' };
const DISCLAIMER = 'Important Disclaimer';

describe.each(BACKENDS)('page cache (%s)', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let c: AdminClients;
  let product: { id: string };
  /**
   * The pages rendered: every render runs the root route's loader, which asks the API in process
   * (through the app's own fetch) who is signed in, once; a page served from the cache runs nothing.
   */
  let appFetch: MockInstance<TestApp['app']['fetch']>;
  const renders = {
    mock: {
      get calls() {
        return appFetch.mock.calls.filter(([request]) => new URL(request.url).pathname === '/api/auth/me');
      },
    },
    mockClear: () => appFetch.mockClear(),
  };

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: stripeEnv(fake),
    });
    c = await signInClients(t);
    appFetch = vi.spyOn(t.app, 'fetch');
    product = await createProduct(t.deps.database.db, {
      title: 'Cached Page Leggings',
      priceCents: 4_000,
      quantity: 1,
      sizes: ['M'],
      colors: ['Black'],
      sizeGuide: null,
    });
    // The renderer and the database warmed up (a cold first render can miss the data budget),
    // without the cache (an Authorization header skips it). The shop's info (every storefront
    // page's footer) first waits for the local ledger to be set up, seconds after start.
    expect((await t.app.request('/api/shop')).status).toBe(200);
    for (const path of ['/', `/products/${product.id}`])
      await t.app.request(path, { headers: { authorization: 'Bearer warm-up' } });
    await changed();
    renders.mockClear();
  });
  afterAll(async () => {
    appFetch?.mockRestore();
    await t?.close();
    await fake?.close();
  });
  afterEach(() => {
    renders.mockClear();
  });

  /**
   * What a writer does after its commit: a 'catalog' event (the factory writes none). Delivered
   * through NOTIFY on PostgreSQL, to the caches first (they subscribed at start): once it reaches
   * the subscription here, they have dropped what they held.
   */
  async function changed() {
    let delivered = false;
    const unsubscribe = t.deps.events.subscribe(['catalog'], (event) => {
      if (event.type === 'product.updated' && Object.keys(event.data ?? {}).length === 0) delivered = true;
    });
    try {
      await t.deps.events.publish('catalog', { type: 'product.updated', data: {} });
      await vi.waitFor(() => expect(delivered, 'the catalog event delivered').toBe(true), LIVE_WAIT);
    } finally {
      unsubscribe();
    }
  }

  async function page(path: string, headers: Record<string, string> = {}) {
    const res = await t.app.request(path, { headers: { accept: 'text/html', ...headers } });
    const buffer = Buffer.from(await res.arrayBuffer());
    const encoding = res.headers.get('content-encoding');
    const html = (
      encoding === 'br' ? brotliDecompressSync(buffer) : encoding === 'gzip' ? gunzipSync(buffer) : buffer
    ).toString('utf8');
    const header = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    const attributes = [...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);
    return { res, html, nonce: header, attributes };
  }

  /** The page's HTML with its nonce taken out, to compare two responses. */
  const withoutNonce = (html: string, nonce: string | undefined) => html.replaceAll(nonce!, 'NONCE');
  /**
   * ... and its loaders' data (React Router's encoded stream at the end of the page) read back
   * with the times the data was read at set to 0, to compare two renders: the page as HTML and
   * that data.
   */
  const STREAM = /(window\.__reactRouterContext\.streamController\.enqueue\()("(?:[^"\\]|\\.)*")(\);?)/g;
  const TIMES = new Set(['dehydratedAt', 'dataUpdatedAt', 'errorUpdatedAt']);
  const withoutTimes = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(withoutTimes);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        TIMES.has(key) && typeof v === 'number' ? 0 : withoutTimes(v),
      ]),
    );
  };
  const sameRender = async (html: string, nonce: string | undefined) => {
    const encoded = [...html.matchAll(STREAM)].map((m) => JSON.parse(m[2]!) as string).join('');
    expect(encoded.length).toBeGreaterThan(0);
    const { value } = await decodeTurboStream(new Blob([encoded]).stream(), globalThis);
    return {
      html: withoutNonce(html, nonce).replace(STREAM, '$1"…"$3'),
      data: withoutTimes(value),
    };
  };

  it.each(['/', 'product'])(
    'serves a second anonymous %s from the cache, with a fresh nonce in the header and every nonce attribute',
    async (which) => {
      const path = which === 'product' ? `/products/${product.id}` : which;
      let first = await page(path, RETURNING);
      let rendered = renders.mock.calls.length;
      expect(rendered).toBe(1);
      let second = await page(path, RETURNING);
      // A render that missed the data budget (a loaded machine) is not kept: the next one is.
      for (let i = 0; i < 3 && renders.mock.calls.length > rendered; i++) {
        [first, rendered] = [second, renders.mock.calls.length];
        second = await page(path, RETURNING);
      }
      expect(first.res.status).toBe(200);
      expect(second.res.status).toBe(200);
      // Served without a render.
      expect(renders.mock.calls.length).toBe(rendered);

      for (const response of [first, second]) {
        expect(response.nonce).toMatch(/^[\w+/=-]{16,}$/);
        expect(response.attributes.length).toBeGreaterThan(0);
        expect(response.attributes.every((a) => a === response.nonce)).toBe(true);
        expect(response.html).not.toContain(NONCE_PLACEHOLDER);
        expect(response.res.headers.get('cache-control')).toBe('no-cache');
        expect(response.res.headers.get('content-type')).toMatch(/^text\/html/);
      }
      expect(second.nonce).not.toBe(first.nonce);
      expect(withoutNonce(second.html, second.nonce)).toBe(withoutNonce(first.html, first.nonce));
      if (which === 'product') expect(first.html).toContain('Cached Page Leggings');

      // The same bytes as a render for this request alone (an Authorization header skips the
      // cache; the page reads no such header), apart from the nonce.
      const uncached = await page(path, { ...RETURNING, authorization: 'Bearer nobody' });
      expect(renders.mock.calls.length).toBe(rendered + 1);
      expect(await sameRender(uncached.html, uncached.nonce)).toEqual(
        await sameRender(first.html, first.nonce),
      );

      // Compressed forms, made once: the same page, this response's nonce.
      await expect
        .poll(
          async () =>
            (await page(path, { ...RETURNING, 'accept-encoding': 'br' })).res.headers.get('content-encoding'),
          { timeout: 3_000, interval: 20 },
        )
        .not.toBeNull();
      for (const encoding of ['br', 'gzip']) {
        const compressed = await page(path, { ...RETURNING, 'accept-encoding': encoding });
        expect(compressed.res.headers.get('content-encoding')).toBe(encoding);
        expect(compressed.res.headers.get('vary')).toMatch(/accept-encoding/i);
        expect(compressed.attributes.every((a) => a === compressed.nonce)).toBe(true);
        expect(withoutNonce(compressed.html, compressed.nonce)).toBe(withoutNonce(first.html, first.nonce));
      }
      expect(renders.mock.calls.length).toBe(rendered + 1);

      // HEAD answers from the same entry.
      const head = await t.app.request(path, {
        method: 'HEAD',
        headers: { accept: 'text/html', ...RETURNING },
      });
      expect(head.status).toBe(200);
      expect(renders.mock.calls.length).toBe(rendered + 1);
    },
  );

  it('keys the filters in any order as one page', async () => {
    const a = await page('/?gender=women&sort=price-asc', RETURNING);
    const b = await page('/?sort=price-asc&gender=women', RETURNING);
    expect(renders.mock.calls.length).toBe(1);
    expect(withoutNonce(b.html, b.nonce)).toBe(withoutNonce(a.html, a.nonce));
    // An uncached render of the other order is the same page.
    const uncached = await page('/?sort=price-asc&gender=women', { ...RETURNING, authorization: 'Bearer x' });
    expect(await sameRender(uncached.html, uncached.nonce)).toEqual(await sameRender(a.html, a.nonce));
  });

  it('renders the consent prompts a visitor still has to answer, first visit and returning, each cached', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await page('/faq')).html).toContain(DISCLAIMER);
      expect((await page('/faq', RETURNING)).html).not.toContain(DISCLAIMER);
      // Accepted the disclaimer, not yet answered the cookie notice.
      const half = await page('/faq', { cookie: 'aelo-disclaimer-accepted=true' });
      expect(half.html).not.toContain(DISCLAIMER);
      expect(half.html).toContain('cookie-notice-title');
    }
    expect(renders.mock.calls.length).toBe(3);
  });

  it("shows an admin's price and title change in the next page", async () => {
    const path = `/products/${product.id}`;
    expect((await page(path, RETURNING)).html).toContain('Cached Page Leggings');
    expect((await page('/', RETURNING)).html).toContain('Cached Page Leggings');
    await json<Product>(
      await c.admin.patch(`/api/admin/products/${product.id}`, {
        title: 'Renamed Leggings',
        priceCents: 3_250,
      }),
      200,
    );
    await expect
      .poll(
        async () => {
          const [one, home] = [(await page(path, RETURNING)).html, (await page('/', RETURNING)).html];
          return (
            one.includes('Renamed Leggings') && one.includes('32.50') && home.includes('Renamed Leggings')
          );
        },
        { timeout: NOTICE_WAIT_MS, interval: 20 },
      )
      .toBe(true);
  });

  it('shows the last unit sold out in the next page while a checkout holds it, and back on release', async () => {
    const path = `/products/${product.id}`;
    const SOLD_OUT = 'This item is currently sold out.';
    expect((await page(path, RETURNING)).html).not.toContain(SOLD_OUT);
    const res = await t.client().post('/api/checkout', {
      items: [{ productId: product.id, size: 'M', color: 'Black', quantity: 1 }],
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const checkout = (await res.json()) as CheckoutResponse;
    const soldOutShown = async () => (await page(path, RETURNING)).html.includes(SOLD_OUT);
    await expect.poll(soldOutShown, { timeout: NOTICE_WAIT_MS, interval: 20 }).toBe(true);
    const cancelled = await t.client().post(`/api/payments/${checkout.reference}/cancel`);
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    await expect.poll(soldOutShown, { timeout: NOTICE_WAIT_MS, interval: 20 }).toBe(false);
  });

  it('never serves a signed-in visitor a cached page, and never keeps theirs', async () => {
    await changed();
    for (let i = 0; i < 2; i++) {
      const res = await c.customer.get('/', { headers: { accept: 'text/html' } });
      const html = await res.text();
      expect(html).toContain('Profile');
    }
    expect(renders.mock.calls.length).toBe(2);
    const anonymous = await page('/');
    expect(renders.mock.calls.length).toBe(3);
    expect(anonymous.html).not.toMatch(/>Profile</);
    // A session cookie, even one that names no session, is rendered for its request alone.
    await page('/', { cookie: 'shop.session_token=unknown' });
    await page('/', { cookie: '__Secure-shop.session_token=unknown' });
    expect(renders.mock.calls.length).toBe(5);
  });

  it('keeps no page cut short by the data budget, no 404 and no 503', async () => {
    const catalog = t.deps.catalog;
    const list = catalog.listProductsPrepared.bind(catalog);
    await changed();
    // The product list takes longer than the 400 ms budget once: the page goes without it.
    const slow = vi.spyOn(catalog, 'listProductsPrepared').mockImplementationOnce(async (filter) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return list(filter);
    });
    const partial = await page('/?size=M', RETURNING);
    expect(partial.res.status).toBe(200);
    expect(partial.html).not.toContain(`/products/${product.id}`);
    slow.mockRestore();
    const whole = await page('/?size=M', RETURNING);
    expect(whole.html).toContain(`/products/${product.id}`);
    expect(renders.mock.calls.length).toBe(2);

    const missing = '/products/00000000-0000-4000-8000-000000000000';
    expect((await page(missing, RETURNING)).res.status).toBe(404);
    expect((await page(missing, RETURNING)).res.status).toBe(404);
    expect(renders.mock.calls.length).toBe(4);

    const down = vi
      .spyOn(catalog, 'listProductsPrepared')
      .mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    try {
      const unavailable = await page('/?size=L', RETURNING);
      expect(unavailable.res.status).toBe(503);
    } finally {
      down.mockRestore();
    }
    const back = await page('/?size=L', RETURNING);
    expect(back.res.status).toBe(200);
    expect(renders.mock.calls.length).toBe(6);
  });
});
