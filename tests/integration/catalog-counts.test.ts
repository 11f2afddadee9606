import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORY_VALUES,
  GENDERS,
  SIZES,
  isCategoryOfGender,
  type Category,
  type Size,
} from '#common/catalog';
import type { ProductFilters } from '#common/catalog-query';
import type { ProductPage } from '#common/schemas/product';
import { createCatalogRepository } from '#server/modules/catalog/catalog.repository';
import { buildProduct } from '../factories/product';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The grid's total ("Showing 12 of N") comes from product_counts, which triggers keep per gender,
 * category and size (migration 0020) instead of counting the products on each request. These tests
 * hold it equal to a count of the products themselves, for every filter the grid offers, after any
 * mix of inserts, edits and deletes.
 */

const WOMENS = CATEGORY_VALUES.filter((c) => isCategoryOfGender(c, 'womens'));
const MENS = CATEGORY_VALUES.filter((c) => isCategoryOfGender(c, 'mens'));

/** Every filter combination the grid can ask for (gender, category of that gender, size; or none). */
function everyFilter(): ProductFilters[] {
  const filters: ProductFilters[] = [];
  for (const gender of [undefined, ...GENDERS]) {
    const categories: Array<Category | undefined> = [
      undefined,
      ...CATEGORY_VALUES.filter((c) => !gender || isCategoryOfGender(c, gender)),
    ];
    for (const category of categories) {
      for (const size of [undefined, ...SIZES]) filters.push({ gender, category, size });
    }
  }
  return filters;
}

const placement = fc.oneof(
  fc.record({ gender: fc.constant('womens' as const), category: fc.constantFrom(...WOMENS) }),
  fc.record({ gender: fc.constant('mens' as const), category: fc.constantFrom(...MENS) }),
);
// Sizes as the column may hold them: none, several, even one twice (the database does not refuse it).
const sizes = fc.array(fc.constantFrom(...SIZES), { maxLength: 6 });

type Op =
  | { kind: 'insert'; place: { gender: 'womens' | 'mens'; category: Category }; sizes: Size[] }
  | { kind: 'move'; pick: number; place: { gender: 'womens' | 'mens'; category: Category }; sizes: Size[] }
  | { kind: 'stock'; pick: number }
  | { kind: 'delete'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert' as const), place: placement, sizes }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), place: placement, sizes }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stock' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
);

describe.each(BACKENDS)('catalogue totals (%s)', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The same count as the repository's, read from the products themselves. */
  const countProducts = async (filter: ProductFilters) => {
    let query = t.deps.database.db.selectFrom('products').select((eb) => eb.fn.countAll<string>().as('n'));
    if (filter.gender) query = query.where('gender', '=', filter.gender);
    if (filter.category) query = query.where('category', '=', filter.category);
    if (filter.size) query = query.where(sql<boolean>`${filter.size} = any(sizes)`);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };

  const expectTotalsMatch = async () => {
    const repo = createCatalogRepository(t.deps.database.db);
    const mismatches: string[] = [];
    for (const filter of everyFilter()) {
      const [kept, counted] = await Promise.all([repo.countMatching(filter), countProducts(filter)]);
      if (kept !== counted) mismatches.push(`${JSON.stringify(filter)}: ${kept} instead of ${counted}`);
    }
    expect(mismatches).toEqual([]);
  };

  /** product_counts as it should be, computed here from the products themselves. */
  const expectedCounts = async () => {
    const rows = await t.deps.database.db
      .selectFrom('products')
      .select(['gender', 'category', 'sizes'])
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) {
      for (const size of new Set(['', ...row.sizes])) {
        const key = `${row.gender}|${row.category}|${size}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    return counts;
  };
  const keptCounts = async () => {
    const rows = await t.deps.database.db.selectFrom('product_counts').selectAll().execute();
    return new Map(
      rows.filter((r) => r.count !== 0).map((r) => [`${r.gender}|${r.category}|${r.size}`, r.count]),
    );
  };

  it('keeps the counts per gender, category and size exact through inserts, edits and deletes', async () => {
    const db = t.deps.database.db;
    const repo = createCatalogRepository(db);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        // Each run starts from an empty, exact table, whatever a failed run before it left.
        await db.deleteFrom('products').execute();
        await sql`select product_counts_rebuild()`.execute(db);
        const ids: string[] = [];
        for (const o of ops) {
          const target = ids.length > 0 && o.kind !== 'insert' ? ids[o.pick % ids.length]! : undefined;
          if (o.kind === 'insert') {
            ids.push(await repo.insertProduct({ ...buildProduct(o.place), sizes: o.sizes, sizeGuide: null }));
          } else if (target && o.kind === 'move') {
            // Raw SQL too, so that repeated sizes reach the trigger as they could from any writer.
            await db
              .updateTable('products')
              .set({ gender: o.place.gender, category: o.place.category, sizes: o.sizes })
              .where('id', '=', target)
              .execute();
          } else if (target && o.kind === 'stock') {
            await db
              .updateTable('products')
              .set((eb) => ({ quantity: eb('quantity', '+', 1) }))
              .where('id', '=', target)
              .execute();
          } else if (target && o.kind === 'delete') {
            await repo.deleteProduct(target);
            ids.splice(ids.indexOf(target), 1);
          }
        }
        expect(await keptCounts()).toEqual(await expectedCounts());
        await db.deleteFrom('products').execute();
        expect(await keptCounts()).toEqual(new Map());
      }),
      { numRuns: 25 },
    );
    // Nothing left: no count row says otherwise.
    const left = await db.selectFrom('product_counts').select('count').where('count', '<>', 0).execute();
    expect(left).toEqual([]);
  });

  it('answers the list with the kept total, and product_counts_rebuild() and TRUNCATE agree with it', async () => {
    const db = t.deps.database.db;
    const repo = createCatalogRepository(db);
    await repo.insertProducts([
      buildProduct({ sizes: ['XS', 'S'] }),
      buildProduct({ sizes: ['M'] }),
      buildProduct({ gender: 'mens', category: 'mens-jackets', sizes: ['M', 'XL'] }),
    ]);
    // Every filter the grid offers, summed by the repository, against a count of the products.
    await expectTotalsMatch();
    const total = async (query: string) => {
      const res = await t.app.request(`/api/products${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as ProductPage).total;
    };
    t.deps.catalog.invalidate();
    expect(await total('')).toBe(3);
    expect(await total('?size=M')).toBe(2);
    expect(await total('?gender=womens&size=M')).toBe(1);
    expect(await total('?gender=mens&category=mens-jackets')).toBe(1);
    expect(await total('?size=L')).toBe(0);

    // A bulk load with the triggers off (as bench/support/scale-database.ts does) is repaired by the rebuild.
    const before = await db
      .selectFrom('product_counts')
      .selectAll()
      .orderBy(['gender', 'category', 'size'])
      .execute();
    await db.deleteFrom('product_counts').execute();
    await sql`select product_counts_rebuild()`.execute(db);
    const rebuilt = await db
      .selectFrom('product_counts')
      .selectAll()
      .orderBy(['gender', 'category', 'size'])
      .execute();
    expect(rebuilt).toEqual(before.filter((row) => row.count !== 0));
    await expectTotalsMatch();

    await sql`truncate products cascade`.execute(db);
    t.deps.catalog.invalidate();
    expect(await total('')).toBe(0);
    await expectTotalsMatch();
  });

  it("answers the first page with each filter choice's count, the other filters applied; Show more without", async () => {
    const db = t.deps.database.db;
    await db.deleteFrom('products').execute();
    const repo = createCatalogRepository(db);
    await repo.insertProducts([
      ...Array.from({ length: 13 }, () => buildProduct({ sizes: ['XS', 'S'] })),
      buildProduct({ sizes: ['M'] }),
      buildProduct({ gender: 'mens', category: 'mens-jackets', sizes: ['M', 'XL'] }),
    ]);
    t.deps.catalog.invalidate();
    const page = async (query: string) => {
      const res = await t.app.request(`/api/products${query}`);
      expect(res.status).toBe(200);
      return (await res.json()) as ProductPage;
    };
    const filters: ProductFilters[] = everyFilter().filter((f) => f.gender || f.size);
    for (const filter of [{}, ...filters.slice(0, 40)]) {
      const query = new URLSearchParams(
        Object.entries(filter).filter((e): e is [string, string] => e[1] !== undefined),
      );
      const { facets } = await page(`?${query}`);
      if (!facets) throw new Error('the first page has no facets');
      // Each count is the total the grid would show with that one choice changed.
      for (const gender of GENDERS) {
        expect(facets.genders[gender]).toBe(await countProducts({ gender, size: filter.size }));
      }
      for (const category of CATEGORY_VALUES) {
        const expected =
          filter.gender && !isCategoryOfGender(category, filter.gender)
            ? 0
            : await countProducts({ gender: filter.gender, category, size: filter.size });
        expect(facets.categories[category]).toBe(expected);
      }
      for (const size of SIZES) {
        expect(facets.sizes[size]).toBe(
          await countProducts({ gender: filter.gender, category: filter.category, size }),
        );
      }
    }
    const first = await page('?size=S');
    expect(first.facets?.sizes).toEqual({ XS: 13, S: 13, M: 2, L: 0, XL: 1 });
    expect(first.nextCursor).not.toBeNull();
    const next = await page(`?size=S&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(next.products).toHaveLength(1);
    expect(next.facets).toBeUndefined();
  });
});
