import { sql } from 'kysely';
import type { Category, Gender } from '#common/schemas/product';
import type { Db } from '#server/db/client';
import { likeContains, toNumber } from '#server/db/sql-helpers';
import { toRecord, type ProductRecord } from './catalog.repository';

/** The admin product list (filters, search, pages), the categories in use, and delete guards. */

export interface AdminProductFilter {
  gender: Gender | undefined;
  category: Category | undefined;
  search: string;
}

export function createCatalogAdminRepository(db: Db) {
  function filtered(filter: AdminProductFilter) {
    let query = db.selectFrom('products');
    if (filter.gender) query = query.where('gender', '=', filter.gender);
    if (filter.category) query = query.where('category', '=', filter.category);
    if (filter.search) {
      const pattern = likeContains(filter.search);
      query = query.where((eb) =>
        eb.or([
          eb('title', 'ilike', pattern),
          eb('description', 'ilike', pattern),
          eb('brand', 'ilike', pattern),
        ]),
      );
    }
    return query;
  }

  return {
    /** Newest first. */
    async findPage(
      filter: AdminProductFilter & { limit: number; offset: number },
    ): Promise<{ rows: ProductRecord[]; total: number }> {
      const [rows, count] = await Promise.all([
        filtered(filter)
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        filtered(filter)
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toRecord), total: toNumber(count.count) };
    },

    /** A loose index scan: one probe of products_category_idx per category, not a walk over every product. */
    async findDistinctCategories(): Promise<string[]> {
      const result = await sql<{ category: string | null }>`
        with recursive found(category) as (
          (select category from products order by category limit 1)
          union all
          select (select p.category from products p where p.category > found.category order by p.category limit 1)
            from found where found.category is not null
        )
        select category from found where category is not null`.execute(db);
      return result.rows.map((r) => r.category!);
    },

    /** The product's images, with its row locked until the transaction ends; undefined when missing. */
    async lockById(id: string): Promise<{ id: string; title: string; images: string[] } | undefined> {
      return db
        .selectFrom('products')
        .select(['id', 'title', 'images'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Reservations of an open checkout (not yet released back to stock nor consumed by an order). */
    /** Units that open checkouts hold, per product (products without any are absent). */
    async findHeldUnits(productIds: readonly string[]): Promise<Map<string, number>> {
      if (productIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('stock_reservations')
        .select((eb) => ['product_id', eb.fn.sum<number | string>('quantity').as('units')])
        .where('product_id', 'in', [...productIds])
        .where('released_at', 'is', null)
        .where('consumed_at', 'is', null)
        .groupBy('product_id')
        .execute();
      return new Map(rows.map((r) => [r.product_id, toNumber(r.units)]));
    },

    /** Units that open checkouts hold, per product and size (holds without a size are left out). */
    async findHeldUnitsBySize(productIds: readonly string[]): Promise<Map<string, Record<string, number>>> {
      const found = new Map<string, Record<string, number>>();
      if (productIds.length === 0) return found;
      const rows = await db
        .selectFrom('stock_reservations')
        .select((eb) => ['product_id', 'size', eb.fn.sum<number | string>('quantity').as('units')])
        .where('product_id', 'in', [...productIds])
        .where('size', 'is not', null)
        .where('released_at', 'is', null)
        .where('consumed_at', 'is', null)
        .groupBy(['product_id', 'size'])
        .execute();
      for (const r of rows) {
        const sizes = found.get(r.product_id) ?? {};
        sizes[r.size!] = toNumber(r.units);
        found.set(r.product_id, sizes);
      }
      return found;
    },

    async countOpenReservations(productId: string): Promise<number> {
      const row = await db
        .selectFrom('stock_reservations')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('product_id', '=', productId)
        .where('released_at', 'is', null)
        .where('consumed_at', 'is', null)
        .executeTakeFirstOrThrow();
      return toNumber(row.count);
    },
  };
}
