import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_PAGE_SIZE } from '#common/catalog-query';
import type { ProductPage } from '#common/schemas/product';
import { buildProduct } from '../factories/product';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { createCatalogRepository } from '#server/modules/catalog/catalog.repository';

/** GET /api/products in pages: the grid's first screen, then Show more (keyset cursors). */
describe.each(BACKENDS)('catalogue pages (%s)', (backend) => {
  let t: TestApp;
  const PRODUCTS = 30;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    const db = t.deps.database.db;
    const base = Date.UTC(2026, 0, 1);
    // Prices repeat (five of each) and so do creation times (three products a minute), so the order
    // falls back on created_at and then on the id, where a cursor is easiest to get wrong.
    const products = Array.from({ length: PRODUCTS }, (_, i) =>
      buildProduct({
        title: `Paged ${i}`,
        priceCents: 2000 + (i % 6) * 500,
        gender: i % 3 === 0 ? 'mens' : 'womens',
        category: i % 3 === 0 ? 'mens-shorts' : 'womens-leggings',
        sizes: i % 2 === 0 ? ['M'] : ['S', 'L'],
        createdAt: new Date(base + Math.floor(i / 3) * 60_000),
      }),
    );
    await createCatalogRepository(db).insertProducts(products);
    // Two products a microsecond apart: a cursor that kept only milliseconds (a JavaScript Date)
    // would skip or repeat one of them.
    await sql`update products set created_at = created_at + interval '1 microsecond' where title = 'Paged 4'`.execute(
      db,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = async (query: string): Promise<ProductPage> => {
    const res = await t.app.request(`/api/products${query}`);
    expect(res.status, query).toBe(200);
    return (await res.json()) as ProductPage;
  };

  /** Every page from the first, following nextCursor; the titles in order. */
  const walk = async (query: string, limit: number) => {
    const titles: string[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const params = new URLSearchParams(query);
      params.set('limit', String(limit));
      if (cursor) params.set('cursor', cursor);
      const current = await page(`?${params}`);
      expect(current.products.length).toBeLessThanOrEqual(limit);
      if (current.nextCursor) expect(current.products).toHaveLength(limit);
      titles.push(...current.products.map((p) => p.title));
      cursor = current.nextCursor;
      requests++;
    } while (cursor && requests < 50);
    return titles;
  };

  it(`sends the first ${PRODUCT_PAGE_SIZE} products, the total and a cursor, and null on the last page`, async () => {
    const first = await page('');
    expect(first.products).toHaveLength(PRODUCT_PAGE_SIZE);
    expect(first.total).toBe(PRODUCTS);
    expect(first.nextCursor).toEqual(expect.any(String));
    const all = await page('?limit=48');
    expect(all.products).toHaveLength(PRODUCTS);
    expect(all.nextCursor).toBeNull();
    expect(first.products.map((p) => p.id)).toEqual(
      all.products.slice(0, PRODUCT_PAGE_SIZE).map((p) => p.id),
    );
  });

  it('walks every order and filter page by page: each product once, in the order of one long page', async () => {
    // With a size, few matches are read through the size keys' index and many by walking the
    // order's index (catalog.repository.ts): the limits below take both ways.
    for (const filter of [
      '',
      'gender=womens',
      'size=M',
      'gender=mens&size=M',
      'category=womens-leggings&size=L',
    ]) {
      for (const sort of ['newest', 'price-asc', 'price-desc']) {
        const query = `${filter}&sort=${sort}`;
        const whole = await page(`?${query}&limit=48`);
        const expected = whole.products.map((p) => p.title);
        expect(whole.total, query).toBe(expected.length);
        for (const limit of [1, 4, 7]) {
          expect(await walk(query, limit), `${query} limit ${limit}`).toEqual(expected);
        }
      }
    }
    // The one long page itself is in the grid's order: by price when asked, then newest first.
    const byPrice = (await page('?sort=price-asc&limit=48')).products;
    for (let i = 1; i < byPrice.length; i++) {
      const [a, b] = [byPrice[i - 1]!, byPrice[i]!];
      expect(
        a.priceCents < b.priceCents || (a.priceCents === b.priceCents && a.createdAt >= b.createdAt),
      ).toBe(true);
    }
  });

  it('finds a size only a few products come in, in order, and answers none at once', async () => {
    const db = t.deps.database.db;
    const base = Date.UTC(2026, 0, 1);
    const rare = [0, 1, 2].map((i) =>
      buildProduct({
        title: `Rare XL ${i}`,
        priceCents: 9000 - i * 1000,
        gender: 'womens',
        category: 'womens-leggings',
        sizes: ['S', 'XL'],
        createdAt: new Date(base + i * 60_000),
      }),
    );
    const ids = await createCatalogRepository(db).insertProducts(rare);
    await t.deps.events.publish('catalog', { type: 'product.created', data: { id: ids[0] } });
    try {
      const newest = ['Rare XL 2', 'Rare XL 1', 'Rare XL 0'];
      for (const filter of ['size=XL', 'gender=womens&size=XL', 'category=womens-leggings&size=XL']) {
        const first = await page(`?${filter}`);
        expect(first.total, filter).toBe(3);
        expect(first.products.map((p) => p.title)).toEqual(newest);
        expect(await walk(`${filter}&sort=price-asc`, 1)).toEqual(newest);
        expect(await walk(`${filter}&sort=price-desc`, 2)).toEqual([...newest].reverse());
      }
      // Men's shorts never come in XL, and only men's shorts are men's here.
      for (const filter of ['category=mens-shorts&size=XL', 'gender=mens&size=XL&sort=price-asc']) {
        const none = await page(`?${filter}`);
        expect(none, filter).toMatchObject({ products: [], total: 0, nextCursor: null });
      }
    } finally {
      await db.deleteFrom('products').where('id', 'in', ids).execute();
      await t.deps.events.publish('catalog', { type: 'product.deleted', data: { id: ids[0] } });
    }
  });

  it('keeps walking after a newer product is added: nothing repeated, nothing skipped', async () => {
    const first = await page('?limit=10');
    const added = await t.app.request('/api/products'); // warm the cache, then change the catalogue
    expect(added.status).toBe(200);
    const db = t.deps.database.db;
    const [id] = await createCatalogRepository(db).insertProducts([buildProduct({ title: 'Brand New' })]);
    await t.deps.events.publish('catalog', { type: 'product.created', data: { id } });
    const rest: string[] = [];
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await page(`?limit=10&cursor=${cursor}`);
      rest.push(...next.products.map((p) => p.title));
      cursor = next.nextCursor;
    }
    const titles = [...first.products.map((p) => p.title), ...rest];
    expect(titles).not.toContain('Brand New');
    expect(new Set(titles).size).toBe(PRODUCTS);
    await db.deleteFrom('products').where('id', '=', id!).execute();
    await t.deps.events.publish('catalog', { type: 'product.deleted', data: { id } });
  });
});
