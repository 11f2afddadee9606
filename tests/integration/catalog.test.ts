import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ProductPage } from '#common/schemas/product';
import { createProduct } from '../factories/product';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

describe.each(BACKENDS)('catalogue API (%s)', (backend) => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ backend });
    const db = t.deps.database.db;
    const day = 86_400_000;
    ids.old = (
      await createProduct(db, { title: 'Old Leggings', createdAt: new Date(Date.now() - 3 * day) })
    ).id;
    ids.bra = (
      await createProduct(db, {
        title: 'Studio Bra',
        category: 'womens-bras',
        sizes: ['XS', 'S'],
        sizeGuide: { bust: ['30-32', '32-34'] },
        createdAt: new Date(Date.now() - 2 * day),
      })
    ).id;
    ids.mens = (
      await createProduct(db, {
        title: 'Trail Shorts',
        gender: 'mens',
        category: 'mens-shorts',
        sizeGuide: null,
        priceCents: 3600,
        originalPriceCents: 7200,
        images: ['products/1700000000000-aaaa1111-800.webp', 'https://cdn.example.com/shorts.jpg'],
        createdAt: new Date(Date.now() - day),
      })
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (query = '') => {
    const res = await t.app.request(`/api/products${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { products: Product[] }).products;
  };

  it('lists products newest first as DTOs with image URLs and srcset', async () => {
    const products = await list();
    expect(products.map((p) => p.title)).toEqual(['Trail Shorts', 'Studio Bra', 'Old Leggings']);
    const shorts = products[0]!;
    expect(shorts).toMatchObject({
      priceCents: 3600,
      originalPriceCents: 7200,
      gender: 'mens',
      category: 'mens-shorts',
    });
    expect(shorts.images[0]).toEqual({
      path: 'products/1700000000000-aaaa1111-800.webp',
      url: '/uploads/products/1700000000000-aaaa1111-800.webp',
      srcset:
        '/uploads/products/1700000000000-aaaa1111-400.webp 400w, /uploads/products/1700000000000-aaaa1111-800.webp 800w',
    });
    expect(shorts.images[1]).toEqual({
      path: 'https://cdn.example.com/shorts.jpg',
      url: 'https://cdn.example.com/shorts.jpg',
    });
    expect(products[1]?.sizeGuide).toEqual({ bust: ['30-32', '32-34'] });
  });

  it('sorts by price both ways (newest first among equal prices) and filters by size, on the server', async () => {
    const all = await list();
    const byPrice = (dir: 1 | -1) =>
      [...all]
        .sort((a, b) => dir * (a.priceCents - b.priceCents) || b.createdAt.localeCompare(a.createdAt))
        .map((p) => p.title);
    expect(new Set(all.map((p) => p.priceCents)).size).toBeGreaterThan(1);
    expect((await list('?sort=price-asc')).map((p) => p.title)).toEqual(byPrice(1));
    expect((await list('?sort=price-desc')).map((p) => p.title)).toEqual(byPrice(-1));
    expect((await list('?sort=newest')).map((p) => p.title)).toEqual(all.map((p) => p.title));
    const xs = await list('?size=XS');
    expect(xs.map((p) => p.title)).toContain('Studio Bra');
    expect(xs.every((p) => p.sizes.includes('XS'))).toBe(true);
    expect(xs.length).toBeLessThan(all.length);
    expect((await list('?gender=womens&size=XS&sort=price-desc')).every((p) => p.gender === 'womens')).toBe(
      true,
    );
    expect(await list('?size=all')).toHaveLength(all.length);
  });

  it('answers 400 naming the field for an unknown sort or size, a bad page size, or a cursor it did not make for this order', async () => {
    const newest = ((await (await t.app.request('/api/products?limit=1')).json()) as ProductPage).nextCursor;
    expect(newest).toEqual(expect.any(String));
    const forged = Buffer.from(JSON.stringify(['newest', 100, 'yesterday', 'x'])).toString('base64url');
    for (const [query, field] of [
      ['?sort=cheapest', 'sort'],
      ['?size=XXL', 'size'],
      ['?sort=', 'sort'],
      ['?cursor=abc', 'cursor'],
      ['?cursor=', 'cursor'],
      ['?cursor=not%20base64!', 'cursor'],
      [`?cursor=${forged}`, 'cursor'],
      [`?sort=price-asc&cursor=${newest}`, 'cursor'],
      ['?limit=0', 'limit'],
      ['?limit=49', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=2.5', 'limit'],
    ] as const) {
      const res = await t.app.request(`/api/products${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: string; fields?: Record<string, string> } };
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(body.error.fields ?? {}), query).toContain(field);
    }
  });

  it('filters by gender and category on the server', async () => {
    expect((await list('?gender=mens')).map((p) => p.title)).toEqual(['Trail Shorts']);
    expect((await list('?gender=womens')).map((p) => p.title)).toEqual(['Studio Bra', 'Old Leggings']);
    expect((await list('?gender=womens&category=womens-bras')).map((p) => p.title)).toEqual(['Studio Bra']);
    expect((await list('?category=womens-leggings')).map((p) => p.title)).toEqual(['Old Leggings']);
    expect(await list('?gender=all&category=all')).toHaveLength(3);
  });

  it('answers 400 naming the field for bad filters', async () => {
    for (const query of ['?gender=kids', '?category=shoes', '?gender=mens&category=womens-bras']) {
      const res = await t.app.request(`/api/products${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('gets one product and 404s unknown ids', async () => {
    const res = await t.app.request(`/api/products/${ids.bra}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: ids.bra, title: 'Studio Bra' });
    for (const id of ['123e4567-e89b-42d3-a456-426614174000', 'not-a-uuid']) {
      const missing = await t.app.request(`/api/products/${id}`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({
        error: { code: 'NOT_FOUND', message: 'Product not found' },
      });
    }
  });

  it('serves from the cache until a live catalogue event clears it', async () => {
    await list('?gender=mens');
    await t.deps.database.db
      .updateTable('products')
      .set({ title: 'Trail Shorts II' })
      .where('id', '=', ids.mens!)
      .execute();
    // Still cached: no event yet.
    expect((await list('?gender=mens'))[0]?.title).toBe('Trail Shorts');
    await t.deps.events.publish('catalog', { type: 'product.updated', data: { id: ids.mens } });
    await expect
      .poll(async () => (await list('?gender=mens'))[0]?.title, { timeout: 3_000, interval: 25 })
      .toBe('Trail Shorts II');
  });

  it('lists every product in sitemap.xml and points robots.txt at it', async () => {
    const sitemap = await t.app.request('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toContain('application/xml');
    const xml = await sitemap.text();
    expect(xml).toContain(`<loc>${TEST_ORIGIN}/products/${ids.bra}</loc>`);
    expect(xml).toContain(`<loc>${TEST_ORIGIN}/shipping</loc>`);
    const robots = await (await t.app.request('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${TEST_ORIGIN}/sitemap.xml`);
    expect(robots).toContain('Disallow: /admin');
    expect(robots).toContain('Allow: /admin/login');
  });

  it('gives a product URL its own title, description and schema.org data', async () => {
    const res = await t.app.request(`/products/${ids.mens}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<title>Trail Shorts( II)? — Test Brand \| Aelo<\/title>/);
    expect(html).toContain(`<link rel="canonical" href="${TEST_ORIGIN}/products/${ids.mens}"/>`);
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1];
    const ld = JSON.parse(json!) as { image: string[] } & Record<string, unknown>;
    expect(ld).toMatchObject({
      '@type': 'Product',
      brand: { name: 'Test Brand' },
      offers: { price: '36.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    expect(ld.image[0]).toBe(`${TEST_ORIGIN}/uploads/products/1700000000000-aaaa1111-800.webp`);
    const missing = await t.app.request('/products/123e4567-e89b-42d3-a456-426614174000');
    expect(missing.status).toBe(404);
  });

  it("puts a title and description holding $` $' $& and $1 into the page head as written", async () => {
    const title = "Bra $` and $' $& $1 $$";
    const description = "Size $` small $' and a dollar $5 off $&";
    const { id } = await createProduct(t.deps.database.db, { title, description });
    const html = await (await t.app.request(`/products/${id}`)).text();
    // Escaped for HTML (' becomes &#x27;), otherwise exactly the product's text, once each.
    expect(html).toContain(`<title>Bra $\` and $&#x27; $&amp; $1 $$ — Test Brand | Aelo</title>`);
    expect(html).toContain('content="Size $` small $&#x27; and a dollar $5 off $&amp;');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<\/head>/g)).toHaveLength(1);
    // The page itself is rendered in the body (after the demo ledger's banner, which the test
    // server runs), the product's text in it as written too.
    expect(html).toMatch(
      /<body><section class="demo-ledger-banner"[^]*?<\/section><div[^>]*>[^]*<h2 id="product-modal-title"/,
    );
    expect(html).toContain('<h2 id="product-modal-title"');
    expect(html).toContain('>Bra $` and $&#x27; $&amp; $1 $$</h2>');
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1];
    expect((JSON.parse(json!) as { name: string }).name).toBe(title);
  });

  it('answers 404, not 500, to a product URL with malformed percent-encoding', async () => {
    for (const url of ['/products/%E0%A4%A', '/products/%', '/products/abc%zz']) {
      const res = await t.app.request(url);
      expect(res.status, url).toBe(404);
      // The shop's own page (its header and all), not an error.
      expect(await res.text()).toMatch(/^<!DOCTYPE html><html lang="en">[^]*<header/);
    }
  });
});
