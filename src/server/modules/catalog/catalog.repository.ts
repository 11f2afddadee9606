import { sql } from 'kysely';
import type { ProductFilters } from '#common/catalog-query';
import type { Category, Product, ProductInput, Size } from '#common/schemas/product';
import type { ProductsTable } from '#server/db/schema';
import type { Selectable } from 'kysely';
import type { Db } from '#server/db/client';

/**
 * The catalogue's SQL. Rows stay in here: callers pass and get domain-shaped values (cents,
 * camelCase, image storage keys).
 */

/** A product to insert: validated admin input (images are storage keys), optionally back-dated. */
export interface NewProduct extends ProductInput {
  createdAt?: Date;
  updatedAt?: Date;
}

/** Arbitrary but fixed advisory-lock key of the demo seed (other modules use other keys). */
export const DEMO_SEED_LOCK_KEY = 7_305_216_101;

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
     * Filtered by gender, category and size; newest first, or by price (then newest), always with
     * the id last so the order is the same on every run and database.
     */
    async findMany(filter: ProductFilters & { limit: number }): Promise<ProductRecord[]> {
      let query = db.selectFrom('products').selectAll();
      if (filter.gender) query = query.where('gender', '=', filter.gender);
      if (filter.category) query = query.where('category', '=', filter.category);
      if (filter.size) query = query.where(sql<boolean>`${filter.size} = any(sizes)`);
      if (filter.sort === 'price-asc') query = query.orderBy('price_cents', 'asc');
      if (filter.sort === 'price-desc') query = query.orderBy('price_cents', 'desc');
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .execute();
      return rows.map(toRecord);
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
      await sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK_KEY}::bigint)`.execute(db);
    },
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;

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
    category: row.category as Category,
    gender: row.gender,
    shippingWeight: Number(row.shipping_weight),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
