import { sql } from 'kysely';
import type { ProductFilters } from '#common/catalog-query';
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
      query = narrow(query, filter);
      const after = filter.after;
      if (after) {
        // Later in the order than the key: (created_at, id) descending, after the price if sorted by it.
        const newer = sql<boolean>`(created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`;
        if (filter.sort === 'price-asc' || filter.sort === 'price-desc') {
          const beyond = filter.sort === 'price-asc' ? sql`>` : sql`<`;
          // The first condition repeats part of the second so that it bounds the price index's scan:
          // without it a deep page read the index from its start.
          const reached = filter.sort === 'price-asc' ? sql`>=` : sql`<=`;
          query = query.where(
            sql<boolean>`price_cents ${reached} ${after.priceCents} and (price_cents ${beyond} ${after.priceCents} or (price_cents = ${after.priceCents} and ${newer}))`,
          );
        } else {
          query = query.where(newer);
        }
      }
      if (filter.sort === 'price-asc') query = query.orderBy('price_cents', 'asc');
      if (filter.sort === 'price-desc') query = query.orderBy('price_cents', 'desc');
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .execute();
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
