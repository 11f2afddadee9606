import { imageSrcSet, resolveImageUrl } from '#common/images';
import { PRODUCT_PAGE_SIZE, type ProductFilters } from '#common/catalog-query';
import type { Product, ProductPage } from '#common/schemas/product';
import { productFacets } from './product-facets';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { prepareJson, PreparedCache, type PreparedBody } from '#server/lib/prepared-body';
import type { EventHub } from '../events/event-hub';
import type { Storage } from '../storage/storage';
import { createCatalogRepository, type ProductRecord } from './catalog.repository';
import { decodeCursor, encodeCursor } from './product-cursor';

/** The grid's filters and order (common/catalog-query.ts) and the page; the API validates them first. */
export type ProductFilter = ProductFilters & { cursor?: string | undefined; limit?: number | undefined };

export interface CatalogService {
  /**
   * One page, newest first (or by price), filtered on the server, read from the database. A cursor
   * that this server did not make, or made for another order, is a VALIDATION_FAILED naming `cursor`.
   */
  listProducts(filter: ProductFilter): Promise<ProductPage>;
  /** The same page as prepared bytes (JSON, ETag, compressed forms made once), from the cache. */
  listProductsPrepared(filter: ProductFilter): Promise<PreparedBody>;
  /**
   * The same page's prepared bytes if they are cached and ready, without waiting (a hit as
   * listProductsPrepared counts it); undefined otherwise, and then listProductsPrepared answers.
   */
  peekProductsPrepared(filter: ProductFilter): PreparedBody | undefined;
  getProduct(id: string): Promise<Product>;
  /** One product as prepared bytes, from the cache; NOT_FOUND as getProduct. */
  getProductPrepared(id: string): Promise<PreparedBody>;
  /** Every product id with its last change, for sitemap.xml. */
  listProductUrls(): Promise<Array<{ id: string; updatedAt: string }>>;
  /** Drops the cache (also done on every 'catalog' live event, on every instance). */
  invalidate(): void;
  close(): void;
}

/**
 * The cache of prepared lists and products. Every write that can change what they show (admin
 * edits, stock taken, released or sold) publishes a 'catalog' live event after its commit, which
 * reaches every instance through PostgreSQL's NOTIFY and drops the whole cache there; when the
 * LISTEN connection comes back after a loss, the cache is dropped too (onGap). As a backstop an
 * entry older than CACHE_MAX_AGE_MS is rebuilt from the database (in the background, its old
 * bytes served meanwhile; equal bytes keep their ETag), so a notice lost any way (an instance
 * killed between its commit and its NOTIFY, a LISTEN connection silently gone) is outlived within
 * about a second. A load that started before a change is never kept (PreparedCache.invalidate).
 */
const CACHED_BODIES_MAX = 500;
const CACHE_MAX_AGE_MS = 1_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createCatalogService(deps: {
  db: Db;
  storage: Storage;
  events: EventHub;
  logger: Logger;
}): CatalogService {
  const repo = createCatalogRepository(deps.db);
  const publicBase = deps.storage.publicBase;
  const cache = new PreparedCache(CACHED_BODIES_MAX, CACHE_MAX_AGE_MS);

  const invalidate = () => cache.invalidate();
  const unsubscribe = deps.events.subscribe(['catalog'], () => invalidate(), { onGap: () => invalidate() });
  const cached = (key: string, load: () => Promise<PreparedBody>) => cache.get(key, load);

  const toDto = (row: ProductRecord): Product => ({
    ...row,
    images: row.images.map((path) => {
      const srcset = imageSrcSet(path, publicBase);
      return { path, url: resolveImageUrl(path, publicBase), ...(srcset ? { srcset } : {}) };
    }),
  });

  const listProducts = async (filter: ProductFilter): Promise<ProductPage> => {
    const sort = filter.sort ?? 'newest';
    const limit = filter.limit ?? PRODUCT_PAGE_SIZE;
    const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, sort);
    const narrowing = { gender: filter.gender, category: filter.category, size: filter.size, sort };
    const [{ records, keys }, total, counts] = await Promise.all([
      // One more than the page: whether it is there says if a next page is.
      repo.findPage({ ...narrowing, limit: limit + 1, after }),
      repo.countMatching(narrowing),
      // The filters' counts come with the first page only (Show more keeps the filters).
      after ? undefined : repo.findCounts(),
    ]);
    const more = records.length > limit;
    const last = keys[limit - 1];
    return {
      products: records.slice(0, limit).map(toDto),
      total,
      nextCursor: more && last ? encodeCursor(last, sort) : null,
      ...(counts ? { facets: productFacets(counts, narrowing) } : {}),
    };
  };

  const getProduct = async (id: string): Promise<Product> => {
    if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Product not found');
    const row = await repo.findById(id);
    if (!row) throw new AppError('NOT_FOUND', 'Product not found');
    return toDto(row);
  };

  const listKey = (filter: ProductFilter) =>
    `list|${filter.gender ?? '*'}|${filter.category ?? '*'}|${filter.size ?? '*'}|${filter.sort ?? 'newest'}|${filter.limit ?? PRODUCT_PAGE_SIZE}|${filter.cursor ?? ''}`;
  const loadList = (filter: ProductFilter) => async () => prepareJson(await listProducts(filter));

  return {
    listProducts,
    async listProductsPrepared(filter) {
      // Checked before the cache: a bad cursor is the caller's error, never a cached answer.
      if (filter.cursor !== undefined) decodeCursor(filter.cursor, filter.sort ?? 'newest');
      return cached(listKey(filter), loadList(filter));
    },
    // Only a page listProductsPrepared loaded is ever cached: its cursor was checked then.
    peekProductsPrepared: (filter) => cache.peek(listKey(filter), loadList(filter)),
    getProduct,
    async getProductPrepared(id) {
      if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Product not found');
      return cached(`product|${id.toLowerCase()}`, async () => prepareJson(await getProduct(id)));
    },
    async listProductUrls() {
      return repo.listIdsForSitemap(50_000);
    },
    invalidate,
    close() {
      unsubscribe();
      cache.invalidate();
    },
  };
}
