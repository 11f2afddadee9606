import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORY_VALUES,
  GENDERS,
  ProductInputSchema,
  categoriesForGender,
  isLowStock,
} from '#common/schemas/product';
import { DEMO_CATALOG } from '#server/seed/demo-catalog';
import { renderDemoPhoto } from '#server/seed/demo-images/render-demo-photo';
import { demoPhotoSpecs, seedDemoCatalog } from '#server/seed/demo-seed';
import { createPhotoCache, type PhotoCache } from '#server/seed/photo-cache';
import { createLogger } from '#server/lib/logger';
import { createProduct } from '../factories/product';
import { BACKENDS, createScratchDatabase, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

warnIfPostgresSkipped();

describe('the demo catalogue data', () => {
  it('has at least 26 products covering every category of both genders', () => {
    expect(DEMO_CATALOG.length).toBeGreaterThanOrEqual(26);
    expect(new Set(DEMO_CATALOG.map((p) => p.category))).toEqual(new Set(CATEGORY_VALUES));
    for (const g of GENDERS) {
      expect(categoriesForGender(g).every((c) => DEMO_CATALOG.some((p) => p.category === c.value))).toBe(
        true,
      );
    }
    expect(new Set(DEMO_CATALOG.map((p) => p.slug)).size).toBe(DEMO_CATALOG.length);
  });

  it('passes the admin input rules, unchanged by them', () => {
    for (const p of DEMO_CATALOG) {
      const parsed = ProductInputSchema.safeParse({
        ...p,
        images: ['products/x-800.webp'],
        colors: p.colors.map((c) => c.name),
        originalPriceCents: p.originalPriceCents ?? null,
      });
      expect(parsed.error?.issues, p.slug).toBeUndefined();
      expect(parsed.data?.sizes, p.slug).toEqual(p.sizes);
      expect(p.description, p.slug).toMatch(/Condition: (New|Like New|Good|Fair)\./);
      expect(p.description, p.slug).toMatch(/Authenticated/);
    }
  });

  it('mixes stock: some sold out, some with 1 to 5 left, the rest 6 to 25', () => {
    const soldOut = DEMO_CATALOG.filter((p) => p.quantity === 0);
    const low = DEMO_CATALOG.filter((p) => isLowStock(p.quantity));
    expect(soldOut.length).toBeGreaterThanOrEqual(3);
    expect(low.length).toBeGreaterThanOrEqual(5);
    for (const p of DEMO_CATALOG) expect(p.quantity, p.slug).toBeLessThanOrEqual(25);
  });

  it('has believable prices: about a third with a higher original price', () => {
    const reduced = DEMO_CATALOG.filter((p) => p.originalPriceCents !== undefined);
    expect(reduced.length / DEMO_CATALOG.length).toBeGreaterThan(0.25);
    expect(reduced.length / DEMO_CATALOG.length).toBeLessThan(0.5);
    for (const p of DEMO_CATALOG) {
      expect(p.priceCents, p.slug).toBeGreaterThanOrEqual(1500);
      expect(p.priceCents, p.slug).toBeLessThanOrEqual(16800);
      expect(p.shippingWeight, p.slug).toBeGreaterThanOrEqual(0.2);
      expect(p.shippingWeight, p.slug).toBeLessThanOrEqual(2.5);
    }
  });

  it('gives size guides where they make sense: bras by bust, leggings by waist and hip, accessories none', () => {
    for (const p of DEMO_CATALOG) {
      if (p.category.endsWith('-accessories')) expect(p.sizeGuide, p.slug).toBeUndefined();
      if (p.category === 'womens-bras') expect(Object.keys(p.sizeGuide ?? {}), p.slug).toEqual(['bust']);
      if (p.category === 'womens-leggings')
        expect(Object.keys(p.sizeGuide ?? {}).sort(), p.slug).toEqual(['hip', 'waist']);
    }
  });

  it('has 1 to 3 photos per product, several for some, and distinct listing times', () => {
    for (const p of DEMO_CATALOG) {
      expect(p.photos.length, p.slug).toBeGreaterThanOrEqual(1);
      expect(p.photos.length, p.slug).toBeLessThanOrEqual(3);
      for (const photo of p.photos) expect(p.colors[photo.color ?? 0], p.slug).toBeDefined();
    }
    expect(DEMO_CATALOG.filter((p) => p.photos.length > 1).length).toBeGreaterThanOrEqual(10);
    expect(new Set(DEMO_CATALOG.map((p) => p.listedHoursAgo)).size).toBe(DEMO_CATALOG.length);
  });
});

describe('demo photos', () => {
  it('are 1200x1600 PNGs, the same every time', async () => {
    const spec = demoPhotoSpecs(DEMO_CATALOG[0]!)[0]!;
    const [a, b] = await Promise.all([renderDemoPhoto(spec), renderDemoPhoto(spec)]);
    expect(Buffer.compare(a, b)).toBe(0);
    const meta = await sharp(a).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'png',
      width: 1200,
      height: 1600,
    });
  });
});

describe('the demo photo cache', () => {
  it('renders a photo once: a second seed stores the cached variants, byte for byte', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-photo-cache-'));
    const cache = createPhotoCache(dir, createLogger('silent'));
    const seen = { hits: 0, misses: 0 };
    const counting: PhotoCache = {
      async get(spec) {
        const found = await cache.get(spec);
        if (found) seen.hits++;
        else seen.misses++;
        return found;
      },
      put: (spec, variants) => cache.put(spec, variants),
    };
    const catalog = DEMO_CATALOG.slice(0, 2);
    const photos = new Set(catalog.flatMap((p) => demoPhotoSpecs(p).map((s) => JSON.stringify(s)))).size;
    const first = await startTestApp({ backend: 'pglite' });
    const second = await startTestApp({ backend: 'pglite' });
    try {
      await seedDemoCatalog(first.deps, { catalog, photoCache: counting });
      expect(seen).toEqual({ hits: 0, misses: photos });
      expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toHaveLength(photos);

      await seedDemoCatalog(second.deps, { catalog, photoCache: counting });
      expect(seen).toEqual({ hits: photos, misses: photos });
      const imagesOf = (t: TestApp) =>
        t.deps.database.db.selectFrom('products').select(['title', 'images']).orderBy('title').execute();
      const [a, b] = [await imagesOf(first), await imagesOf(second)];
      expect(b.map((r) => r.title)).toEqual(a.map((r) => r.title));
      for (const [i, row] of a.entries()) {
        for (const [j, key] of row.images.entries()) {
          const x = await first.deps.storage.get(key);
          const y = await second.deps.storage.get(b[i]!.images[j]!);
          expect(Buffer.compare(Buffer.from(x!.bytes), Buffer.from(y!.bytes)), key).toBe(0);
        }
      }

      // A damaged entry is rendered again, not served.
      const manifest = readdirSync(dir).find((f) => f.endsWith('.json'))!;
      writeFileSync(path.join(dir, manifest), '{"version":');
      const results = await Promise.all(catalog.flatMap(demoPhotoSpecs).map((s) => cache.get(s)));
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
    } finally {
      await first.close();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.each(BACKENDS)('seedDemoCatalog on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('fills an empty database with the whole catalogue and its photos', async () => {
    const { inserted } = await seedDemoCatalog(t.deps);
    expect(inserted).toBe(DEMO_CATALOG.length);

    const rows = await t.deps.database.db
      .selectFrom('products')
      .selectAll()
      .orderBy('created_at', 'desc')
      .execute();
    expect(rows).toHaveLength(DEMO_CATALOG.length);
    expect(rows.length).toBeGreaterThanOrEqual(24);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(CATEGORY_VALUES));
    expect(new Set(rows.map((r) => r.gender))).toEqual(new Set(['womens', 'mens']));
    expect(rows.filter((r) => r.quantity === 0).length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r.quantity >= 1 && r.quantity <= 5).length).toBeGreaterThanOrEqual(5);
    const reduced = rows.filter((r) => r.original_price_cents !== null);
    expect(reduced.length).toBeGreaterThan(0);
    for (const r of reduced) expect(r.original_price_cents!).toBeGreaterThan(r.price_cents);
    expect(rows.some((r) => r.images.length > 1)).toBe(true);

    // Newest first is the catalogue ordered by listing time.
    const byAge = [...DEMO_CATALOG].sort((a, b) => a.listedHoursAgo - b.listedHoursAgo);
    expect(rows.map((r) => r.title)).toEqual(byAge.map((p) => p.title));

    // A row reads back as the data says (arrays, json and numeric columns on this backend).
    const legging = rows.find((r) => r.title === DEMO_CATALOG[0]!.title)!;
    expect(legging).toMatchObject({
      brand: 'Northline Athletic',
      price_cents: 6800,
      original_price_cents: 11800,
      sizes: ['XS', 'S', 'M', 'L'],
      colors: ['Black'],
      size_guide: DEMO_CATALOG[0]!.sizeGuide,
      gender: 'womens',
      category: 'womens-leggings',
      quantity: 3,
    });
    expect(Number(legging.shipping_weight)).toBe(0.4);

    const keys = [...new Set(rows.flatMap((r) => r.images))];
    for (const key of keys) {
      expect(key).toMatch(/^products\/.+-800\.webp$/);
      const object = await t.deps.storage.get(key);
      expect(object, key).not.toBeNull();
      expect(object!.contentType).toBe('image/webp');
      const bytes = Buffer.from(object!.bytes);
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
      expect(await t.deps.storage.exists(key.replace(/-800\.webp$/, '-400.webp'))).toBe(true);
    }
    expect(keys.length).toBe(
      new Set(DEMO_CATALOG.flatMap((p) => demoPhotoSpecs(p).map((s) => JSON.stringify(s)))).size,
    );
  }, 180_000); // ~12 s on two idle cores; room for a busy CI machine

  it('inserts nothing the second time', async () => {
    expect(await seedDemoCatalog(t.deps)).toEqual({ inserted: 0 });
    const { count } = await t.deps.database.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(DEMO_CATALOG.length);
  });

  it('leaves a database with any product alone', async () => {
    const other = await startTestApp({ backend });
    try {
      await createProduct(other.deps.database.db, { title: 'Already here' });
      expect(await seedDemoCatalog(other.deps)).toEqual({ inserted: 0 });
      const rows = await other.deps.database.db.selectFrom('products').select('title').execute();
      expect(rows).toEqual([{ title: 'Already here' }]);
    } finally {
      await other.close();
    }
  });
});

describe.runIf(BACKENDS.includes('postgres'))(
  'seedDemoCatalog from two instances at once on PostgreSQL',
  () => {
    it('inserts one catalogue', async () => {
      const scratch = await createScratchDatabase('postgres');
      const a = await startTestApp({ backend: 'postgres', scratch });
      const b = await startTestApp({ backend: 'postgres', scratch });
      try {
        const catalog = DEMO_CATALOG.slice(0, 3);
        const results = await Promise.all([
          seedDemoCatalog(a.deps, { catalog }),
          seedDemoCatalog(b.deps, { catalog }),
        ]);
        expect(results.map((r) => r.inserted).sort()).toEqual([0, 3]);
        const rows = await a.deps.database.db.selectFrom('products').select('title').execute();
        expect(rows.map((r) => r.title).sort()).toEqual(catalog.map((p) => p.title).sort());
      } finally {
        await a.close();
        await b.close();
        await scratch.drop();
      }
    });
  },
);
