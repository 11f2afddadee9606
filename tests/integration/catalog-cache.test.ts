import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckoutResponse } from '#common/schemas/checkout';
import type { Product, ProductPage } from '#common/schemas/product';
import type { Db } from '#server/db/client';
import { createProduct } from '../factories/product';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, waitFor, type AdminClients } from './admin-test-kit';
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
  const listChanges = async (before: string, check: (text: string) => boolean) =>
    waitFor(async () => {
      const { res, text } = await list();
      return res.headers.get('etag') !== before && check(text);
    }, NOTICE_WAIT_MS);

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
    expect(
      await listChanges(
        before.res.headers.get('etag')!,
        (text) => listed(text, product.id)?.priceCents === 3_250,
      ),
    ).toBe(true);
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
    expect(
      await listChanges(
        mid.res.headers.get('etag')!,
        (text) => listed(text, product.id)?.title === 'Editable Leggings II',
      ),
    ).toBe(true);
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
    expect(
      await listChanges(before.res.headers.get('etag')!, (text) => listed(text, product.id)?.quantity === 0),
    ).toBe(true);

    const held = await list();
    const cancelled = await t.client().post(`/api/payments/${checkout.reference}/cancel`);
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(
      await listChanges(held.res.headers.get('etag')!, (text) => listed(text, product.id)?.quantity === 1),
    ).toBe(true);
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
      const changed = await waitFor(async () => {
        const res = await other.client().get('/api/products');
        return (
          res.headers.get('etag') !== beforeTag && listed(await res.text(), product.id)?.priceCents === 2_100
        );
      }, NOTICE_WAIT_MS);
      expect(changed).toBe(true);
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
    const changed = await waitFor(async () => {
      const { res, text } = await list();
      return (
        res.headers.get('etag') !== before.res.headers.get('etag') &&
        listed(text, product.id)?.priceCents === 1_400
      );
    }, 4_000);
    expect(changed).toBe(true);
  });
});
