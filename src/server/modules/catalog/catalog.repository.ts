import { sql } from 'kysely';
import type { ProductFilters, ProductSort } from '#common/catalog-query';
import {
  SIZES,
  type Category,
  type Product,
  type ProductInput,
  type Size,
  type SizeStock,
} from '#common/schemas/product';
import type { DB, ProductsTable } from '#server/db/schema';
import type { SelectQueryBuilder, Selectable } from 'kysely';
import type { Db } from '#server/db/client';
import { ADVISORY_LOCK_KEYS } from '#server/db/locks';

/**
 * The catalogue's SQL. Rows stay in here: callers pass and get domain-shaped values (cents,
 * camelCase, image storage keys).
 */

/** A product to insert: validated admin input (images are storage keys), optionally back-dated. */
export interface NewProduct extends Omit<ProductInput, 'sizeStock'> {
  /** Stock per size (sum = quantity); absent or null: one quantity for all sizes. */
  sizeStock?: SizeStock | null;
  createdAt?: Date;
  updatedAt?: Date;
}

/** Kysely instance or a transaction of it. */
export function createCatalogRepository(db: Db) {
  return {
    async countProducts(): Promise<number> {
      const row = await db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Inserts in one statement; returns the new ids in input order. */
    async insertProducts(products: NewProduct[]): Promise<string[]> {
      if (products.length === 0) return [];
      const rows = await db.insertInto('products').values(products.map(toRow)).returning('id').execute();
      return rows.map((r) => r.id);
    },

    async insertProduct(product: NewProduct): Promise<string> {
      const row = await db
        .insertInto('products')
        .values(toRow(product))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * One page of the grid: filtered by gender, category and size; newest first, or by price (then
     * newest), always with the id last so the order is the same on every run and database. `after`
     * is the last product of the page before (keyset pagination: a page costs the same at any depth).
     *
     * Without a size, or with one that many products match, an index is walked in the page's order
     * and the page is the first `limit` products on it that match. With a size only few match, that
     * walk would pass most of the catalogue to find them (the whole of it when none do), so the
     * matches are read through products_size_keys_idx instead and ordered in memory: how many there
     * are comes first, from product_counts (exact, migration 0020), and decides.
     */
    async findPage(
      filter: ProductFilters & { limit: number; after?: ProductPageKey | undefined },
    ): Promise<{ records: ProductRecord[]; keys: ProductPageKey[] }> {
      let query = db
        .selectFrom('products')
        .selectAll()
        .select(
          sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
            'created_key',
          ),
        );
      const after = filter.after ? laterThan(filter.after, filter.sort) : undefined;
      let few = false;
      if (filter.size) {
        const { matching, total } = await countWithSize(db, filter, filter.size);
        if (matching === 0) return { records: [], keys: [] };
        // The walk passes about limit * total / matching products (fewer when a gender or category
        // index narrows it); reading the matches costs about `matching`. The cheaper one.
        few = matching * matching < filter.limit * total;
      }
      if (few && filter.size) {
        // The matches in a materialized CTE, which has no order an index could walk (the planner
        // has no statistics for the GIN key and guessed a walk: 32 s for a key none matched),
        // then the page's ids ordered among them.
        const key = sizeKey(filter, filter.size);
        const matches = db
          .with(
            (cte) => cte('matches').materialized(),
            (qb) =>
              qb
                .selectFrom('products')
                .select(['id', 'price_cents', 'created_at'])
                .where(sql<boolean>`product_size_keys(gender, category, sizes) @> array[${key}]::text[]`),
          )
          .selectFrom('matches')
          .select('id')
          .orderBy(pageOrder(filter.sort))
          .limit(filter.limit);
        query = query.where('id', 'in', after ? matches.where(after) : matches);
      } else {
        query = narrow(query, filter);
        if (after) query = query.where(after);
      }
      const rows = await query.orderBy(pageOrder(filter.sort)).limit(filter.limit).execute();
      return {
        records: rows.map(toRecord),
        keys: rows.map((r) => ({ priceCents: r.price_cents, createdAt: r.created_key, id: r.id })),
      };
    },

    /**
     * How many products the filters match: a sum over the per gender, category and size counts the
     * triggers of migration 0020 keep (at most 18 rows), not a count of the products themselves.
     */
    async countMatching(filter: ProductFilters): Promise<number> {
      let query = db
        .selectFrom('product_counts')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('count'), eb.lit(0)).as('count'))
        .where('size', '=', filter.size ?? '');
      if (filter.gender) query = query.where('gender', '=', filter.gender);
      if (filter.category) query = query.where('category', '=', filter.category);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Every non-zero row of product_counts (a few dozen at most): the filters' counts come from these. */
    async findCounts(): Promise<Array<{ gender: string; category: string; size: string; count: number }>> {
      return db
        .selectFrom('product_counts')
        .select(['gender', 'category', 'size', 'count'])
        .where('count', '>', 0)
        .execute();
    },

    async findById(id: string): Promise<ProductRecord | undefined> {
      const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    async listIdsForSitemap(limit: number): Promise<Array<{ id: string; updatedAt: string }>> {
      const rows = await db
        .selectFrom('products')
        .select(['id', 'updated_at'])
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: r.id, updatedAt: new Date(r.updated_at).toISOString() }));
    },

    /** Replaces every editable field (admin edit); created_at stays. The updated record, or undefined. */
    async updateProduct(
      id: string,
      product: ProductInput,
      updatedAt: Date,
    ): Promise<ProductRecord | undefined> {
      const { created_at: _createdAt, ...row } = toRow({ ...product, updatedAt });
      const updated = await db
        .updateTable('products')
        .set(row)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return updated ? toRecord(updated) : undefined;
    },

    /** Deletes the product (order_items keep their snapshot; reservations cascade). */
    async deleteProduct(id: string): Promise<boolean> {
      const result = await db.deleteFrom('products').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Serialises demo seeding across instances: a transaction-level advisory lock, released at
     * commit or rollback. Call it inside a transaction (db must be the transaction).
     */
    async lockDemoSeed(): Promise<void> {
      await sql`select pg_advisory_xact_lock(${ADVISORY_LOCK_KEYS.demoSeed}::bigint)`.execute(db);
    },
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;

/** Where a product sits in the grid's order: what the next page starts after. */
export interface ProductPageKey {
  priceCents: number;
  /** created_at to the microsecond, in UTC (a JavaScript Date keeps only milliseconds). */
  createdAt: string;
  id: string;
}

/**
 * How many products match the filters with `size` and how many there are in all, from
 * product_counts (a row with size '' counts every product of its gender and category).
 */
async function countWithSize(
  db: Db,
  filter: ProductFilters,
  size: Size,
): Promise<{ matching: number; total: number }> {
  const matches = [sql`size = ${size}`];
  if (filter.gender) matches.push(sql`gender = ${filter.gender}`);
  if (filter.category) matches.push(sql`category = ${filter.category}`);
  const row = await db
    .selectFrom('product_counts')
    .select([
      sql<string | number>`coalesce(sum(count) filter (where ${sql.join(matches, sql` and `)}), 0)`.as(
        'matching',
      ),
      sql<string | number>`coalesce(sum(count) filter (where size = ''), 0)`.as('total'),
    ])
    .where('size', 'in', [size, ''])
    .executeTakeFirstOrThrow();
  return { matching: Number(row.matching), total: Number(row.total) };
}

/**
 * The key of products_size_keys_idx (migration 0034) that holds exactly the products matching the
 * filters with `size`: the size with its category, else with its gender, else alone.
 */
function sizeKey(filter: ProductFilters, size: Size): string {
  if (filter.category) return `${filter.category}/${size}`;
  if (filter.gender) return `${filter.gender}/${size}`;
  return size;
}

/** The grid's order: newest first, or by price then newest; the id last, so that it is total. */
function pageOrder(sort: ProductSort | undefined) {
  if (sort === 'price-asc') return sql`price_cents asc, created_at desc, id desc`;
  if (sort === 'price-desc') return sql`price_cents desc, created_at desc, id desc`;
  return sql`created_at desc, id desc`;
}

/** The products after `key` in the grid's order (the page before ended at `key`). */
function laterThan(key: ProductPageKey, sort: ProductSort | undefined) {
  const newer = sql<boolean>`(created_at, id) < (${key.createdAt}::timestamptz, ${key.id}::uuid)`;
  if (sort !== 'price-asc' && sort !== 'price-desc') return newer;
  const beyond = sort === 'price-asc' ? sql`>` : sql`<`;
  // The first condition repeats part of the second so that it bounds the price index's scan:
  // without it a deep page read the index from its start.
  const reached = sort === 'price-asc' ? sql`>=` : sql`<=`;
  return sql<boolean>`price_cents ${reached} ${key.priceCents} and (price_cents ${beyond} ${key.priceCents} or (price_cents = ${key.priceCents} and ${newer}))`;
}

/** The grid's filters as WHERE clauses. */
function narrow<Q extends SelectQueryBuilder<DB, 'products', object>>(query: Q, filter: ProductFilters): Q {
  let narrowed = query;
  if (filter.gender) narrowed = narrowed.where('gender', '=', filter.gender) as Q;
  if (filter.category) narrowed = narrowed.where('category', '=', filter.category) as Q;
  if (filter.size) narrowed = narrowed.where(sql<boolean>`${filter.size} = any(sizes)`) as Q;
  return narrowed;
}

function toRow(p: NewProduct) {
  const now = new Date();
  return {
    title: p.title,
    description: p.description,
    brand: p.brand,
    price_cents: p.priceCents,
    original_price_cents: p.originalPriceCents,
    images: p.images,
    quantity: p.quantity,
    sizes: p.sizes,
    colors: p.colors,
    size_guide: p.sizeGuide ? JSON.stringify(p.sizeGuide) : null,
    size_stock: p.sizeStock ? JSON.stringify(p.sizeStock) : null,
    gender: p.gender,
    category: p.category,
    shipping_weight: p.shippingWeight.toFixed(2),
    created_at: p.createdAt ?? now,
    updated_at: p.updatedAt ?? p.createdAt ?? now,
  };
}

/** A product as the catalogue works with it: the DTO with images still as storage keys. */
export type ProductRecord = Omit<Product, 'images'> & { images: string[] };

export function toRecord(row: Selectable<ProductsTable>): ProductRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    brand: row.brand,
    priceCents: row.price_cents,
    originalPriceCents: row.original_price_cents,
    images: row.images,
    quantity: row.quantity,
    sizes: row.sizes as Size[],
    colors: row.colors,
    sizeGuide: row.size_guide ?? null,
    // In XS..XL order (jsonb keeps its keys in its own order).
    sizeStock: row.size_stock
      ? Object.fromEntries(
          SIZES.filter((size) => row.size_stock?.[size] !== undefined).map((size) => [
            size,
            row.size_stock![size],
          ]),
        )
      : null,
    category: row.category as Category,
    gender: row.gender,
    shippingWeight: Number(row.shipping_weight),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
