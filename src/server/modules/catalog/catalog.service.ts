import { imageSrcSet, resolveImageUrl } from '#common/images';
import { PRODUCT_PAGE_SIZE, type ProductFilters } from '#common/catalog-query';
import type { Product, ProductPage } from '#common/schemas/product';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import type { EventHub } from '../events/event-hub';
import type { Storage } from '../storage/storage';
import { createCatalogRepository, type ProductRecord } from './catalog.repository';
import { decodeCursor, encodeCursor } from './product-cursor';

/** The grid's filters and order (common/catalog-query.ts) and the page; the API validates them first. */
export type ProductFilter = ProductFilters & { cursor?: string | undefined; limit?: number | undefined };

export interface CatalogService {
  /**
   * One page, newest first (or by price), filtered on the server, from an in-memory cache that live
   * product events clear. A cursor that this server did not make, or made for another order, is a
   * VALIDATION_FAILED naming `cursor`.
   */
  listProducts(filter: ProductFilter): Promise<ProductPage>;
  getProduct(id: string): Promise<Product>;
  /** Every product id with its last change, for sitemap.xml. */
  listProductUrls(): Promise<Array<{ id: string; updatedAt: string }>>;
  /** Drops the cache (also done on every 'catalog' live event, on every instance). */
  invalidate(): void;
  close(): void;
}

/** Pages kept in the cache at most (it is cleared whole when full, and on every catalogue change). */
const CACHED_PAGES_MAX = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createCatalogService(deps: {
  db: Db;
  storage: Storage;
  events: EventHub;
  logger: Logger;
}): CatalogService {
  const repo = createCatalogRepository(deps.db);
  const publicBase = deps.storage.publicBase;
  const cache = new Map<string, Promise<ProductPage>>();
  // Bumped on every invalidation: a load that started before it is not kept.
  let generation = 0;

  const invalidate = () => {
    generation++;
    cache.clear();
  };
  const unsubscribe = deps.events.subscribe(['catalog'], () => invalidate(), { onGap: () => invalidate() });

  const toDto = (row: ProductRecord): Product => ({
    ...row,
    images: row.images.map((path) => {
      const srcset = imageSrcSet(path, publicBase);
      return { path, url: resolveImageUrl(path, publicBase), ...(srcset ? { srcset } : {}) };
    }),
  });

  return {
    async listProducts(filter) {
      const sort = filter.sort ?? 'newest';
      const limit = filter.limit ?? PRODUCT_PAGE_SIZE;
      // Checked before the cache: a bad cursor is the caller's error, never a cached answer.
      const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, sort);
      const key = `${filter.gender ?? '*'}|${filter.category ?? '*'}|${filter.size ?? '*'}|${sort}|${limit}|${filter.cursor ?? ''}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const startedAt = generation;
      const narrowing = { gender: filter.gender, category: filter.category, size: filter.size, sort };
      const load = Promise.all([
        // One more than the page: whether it is there says if a next page is.
        repo.findPage({ ...narrowing, limit: limit + 1, after }),
        repo.countMatching(narrowing),
      ])
        .then(([{ records, keys }, total]): ProductPage => {
          const more = records.length > limit;
          const last = keys[limit - 1];
          return {
            products: records.slice(0, limit).map(toDto),
            total,
            nextCursor: more && last ? encodeCursor(last, sort) : null,
          };
        })
        .catch((err: unknown) => {
          cache.delete(key);
          throw err;
        });
      if (cache.size >= CACHED_PAGES_MAX) cache.clear();
      if (startedAt === generation) cache.set(key, load);
      // If an invalidation lands while loading, forget this (possibly stale) result.
      void load.then(
        () => {
          if (startedAt !== generation && cache.get(key) === load) cache.delete(key);
        },
        () => undefined,
      );
      return await load;
    },
    async getProduct(id) {
      if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Product not found');
      const row = await repo.findById(id);
      if (!row) throw new AppError('NOT_FOUND', 'Product not found');
      return toDto(row);
    },
    async listProductUrls() {
      return repo.listIdsForSitemap(50_000);
    },
    invalidate,
    close() {
      unsubscribe();
      cache.clear();
    },
  };
}
