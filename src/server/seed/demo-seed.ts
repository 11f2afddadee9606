import { availableParallelism } from 'node:os';
import { ProductInputSchema } from '#common/schemas/product';
import { mapWithConcurrency } from '../lib/concurrency';
import {
  catalogHasProducts,
  fillEmptyCatalog,
  type ListedProduct,
} from '../modules/catalog/catalog-seed.service';
import { prepareImage, storePreparedImage, type ImageVariant } from '../modules/storage/storage.service';
import { DEMO_CATALOG } from './demo-catalog';
import type { DemoProduct } from './demo-catalog-kit';
import type { DemoImageSpec } from './demo-images/demo-image-spec';
import { renderDemoPhoto } from './demo-images/render-demo-photo';
import { createPhotoCache, type PhotoCache } from './photo-cache';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import type { Storage } from '#server/modules/storage/storage';

/** What the demo seed uses of the app's services (deps.ts builds them). */
export interface DemoSeedDeps {
  config: Config;
  database: Database;
  logger: Logger;
  storage: Storage;
}

export interface SeedDemoOptions {
  /** Defaults to DEMO_CATALOG. */
  catalog?: DemoProduct[];
  /** The listing times count back from this instant. */
  now?: Date;
  /** Photos rendered and stored at once; defaults to the number of CPUs (at most 4). */
  concurrency?: number;
  /** Where rendered photos are kept between starts; defaults to DEMO_PHOTO_CACHE_DIR. */
  photoCache?: PhotoCache;
}

/**
 * Seeds the demo catalogue into an empty products table, with photos generated locally and stored
 * like uploads (WebP variants). Does nothing when there is any product.
 *
 * Safe with several instances starting at once: the catalogue module inserts them in one
 * transaction that first takes a transaction-level advisory lock and re-counts the products
 * (fillEmptyCatalog). The photos are made inside that lock on purpose: a second instance waits a
 * few seconds and then finds the catalogue, instead of rendering and storing a second set of
 * photos that nothing would reference. It holds one connection for those seconds, once, on first
 * start.
 */
export async function seedDemoCatalog(
  deps: DemoSeedDeps,
  options: SeedDemoOptions = {},
): Promise<{ inserted: number }> {
  const { database, logger } = deps;
  if (await catalogHasProducts(database.db)) {
    logger.debug('demo catalogue: products exist, not seeding');
    return { inserted: 0 };
  }
  const started = performance.now();
  const catalog = options.catalog ?? DEMO_CATALOG;
  const now = options.now ?? new Date();
  const concurrency = options.concurrency ?? Math.min(4, Math.max(1, availableParallelism()));

  let photos = 0;
  const inserted = await fillEmptyCatalog(database.db, async () => {
    const cache = options.photoCache ?? createPhotoCache(deps.config.demoPhotoCacheDir, logger);
    const paths = await storeDemoPhotos(deps, catalog, concurrency, cache);
    photos = new Set(paths.flat()).size;
    return catalog.map((item, i) => toListedProduct(item, paths[i]!, now));
  });

  if (inserted > 0) {
    logger.info(
      { inserted, photos, ms: Math.round(performance.now() - started) },
      `demo catalogue: inserted ${inserted} products`,
    );
  } else {
    logger.debug('demo catalogue: another instance seeded it');
  }
  return { inserted };
}

/** The photos of one demo product, in order (the first is the card image). */
export function demoPhotoSpecs(item: DemoProduct): DemoImageSpec[] {
  return item.photos.map((photo) => {
    const color = item.colors[photo.color ?? 0] ?? item.colors[0]!;
    return {
      garment: item.garment,
      color: color.hex,
      ...(color.heather ? { heather: true } : {}),
      ...(item.trim ? { trim: item.trim } : {}),
      brand: item.mark ?? item.brand.split(' ')[0]!,
      backdrop: item.backdrop,
      view: photo.view,
    };
  });
}

/** A demo photo's WebP variants: from the cache, or rendered, encoded and cached. */
export async function demoPhotoVariants(spec: DemoImageSpec, cache: PhotoCache): Promise<ImageVariant[]> {
  const cached = await cache.get(spec);
  if (cached) return cached;
  // Our own PNGs, not an upload: the upload size limit does not apply.
  const variants = await prepareImage(await renderDemoPhoto(spec), { maxBytes: 20 * 1024 * 1024 });
  await cache.put(spec, variants);
  return variants;
}

/**
 * Renders every demo photo the cache lacks, so that servers seeding later only read it (the test
 * run does this once before its browser-test servers start). Returns how many photos there are.
 */
export async function warmDemoPhotoCache(
  cache: PhotoCache,
  concurrency: number,
  catalog: DemoProduct[] = DEMO_CATALOG,
): Promise<number> {
  const unique = new Map<string, DemoImageSpec>();
  for (const spec of catalog.flatMap(demoPhotoSpecs)) unique.set(JSON.stringify(spec), spec);
  await mapWithConcurrency([...unique.values()], concurrency, (spec) => demoPhotoVariants(spec, cache));
  return unique.size;
}

/** Renders and stores every photo (identical ones once); returns the storage keys per product. */
async function storeDemoPhotos(
  deps: DemoSeedDeps,
  catalog: DemoProduct[],
  concurrency: number,
  cache: PhotoCache,
): Promise<string[][]> {
  const specsPerProduct = catalog.map(demoPhotoSpecs);
  const unique = new Map<string, DemoImageSpec>();
  for (const spec of specsPerProduct.flat()) unique.set(JSON.stringify(spec), spec);
  const keys = [...unique.keys()];
  const stored = await mapWithConcurrency(keys, concurrency, async (key) => {
    const variants = await demoPhotoVariants(unique.get(key)!, cache);
    return (await storePreparedImage(deps.storage, variants)).path;
  });
  const pathByKey = new Map(keys.map((key, i) => [key, stored[i]!]));
  return specsPerProduct.map((specs) => specs.map((spec) => pathByKey.get(JSON.stringify(spec))!));
}

/** The demo item as admin input would give it, checked by the same schema, plus its listing time. */
function toListedProduct(item: DemoProduct, images: string[], now: Date): ListedProduct {
  const input = ProductInputSchema.parse({
    title: item.title,
    description: item.description,
    brand: item.brand,
    priceCents: item.priceCents,
    originalPriceCents: item.originalPriceCents ?? null,
    images,
    quantity: item.quantity,
    sizes: item.sizes,
    colors: item.colors.map((c) => c.name),
    sizeGuide: item.sizeGuide ?? null,
    gender: item.gender,
    category: item.category,
    shippingWeight: item.shippingWeight,
  });
  return { ...input, listedAt: new Date(now.getTime() - item.listedHoursAgo * 3_600_000) };
}
