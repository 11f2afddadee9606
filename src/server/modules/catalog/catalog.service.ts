import { imageSrcSet, resolveImageUrl } from '#common/images';
import type { ProductFilters } from '#common/catalog-query';
import type { Product } from '#common/schemas/product';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import type { EventHub } from '../events/event-hub';
import type { Storage } from '../storage/storage';
import { createCatalogRepository, type ProductRecord } from './catalog.repository';

/** The grid's filters and order (common/catalog-query.ts); the API validates them first. */
export type ProductFilter = ProductFilters;

export interface CatalogService {
  /** Newest first (or by price), filtered on the server, from an in-memory cache that live product events clear. */
  listProducts(filter: ProductFilter): Promise<Product[]>;
  getProduct(id: string): Promise<Product>;
  /** Every product id with its last change, for sitemap.xml. */
  listProductUrls(): Promise<Array<{ id: string; updatedAt: string }>>;
  /** Drops the cache (also done on every 'catalog' live event, on every instance). */
  invalidate(): void;
  close(): void;
}

/** The storefront shows at most this many products (newest first). */
export const CATALOG_LIST_LIMIT = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createCatalogService(deps: {
  db: Db;
  storage: Storage;
  events: EventHub;
  logger: Logger;
}): CatalogService {
  const repo = createCatalogRepository(deps.db);
  const publicBase = deps.storage.publicBase;
  const cache = new Map<string, Promise<Product[]>>();
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
    listProducts(filter) {
      const key = `${filter.gender ?? '*'}|${filter.category ?? '*'}|${filter.size ?? '*'}|${filter.sort ?? 'newest'}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const startedAt = generation;
      const load = repo
        .findMany({ ...filter, limit: CATALOG_LIST_LIMIT })
        .then((rows) => rows.map(toDto))
        .catch((err: unknown) => {
          cache.delete(key);
          throw err;
        });
      if (startedAt === generation) cache.set(key, load);
      // If an invalidation lands while loading, forget this (possibly stale) result.
      void load.then(
        () => {
          if (startedAt !== generation && cache.get(key) === load) cache.delete(key);
        },
        () => undefined,
      );
      return load;
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
