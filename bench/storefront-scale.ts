/**
 * The storefront at scale (issue 15, Scale): a fresh PostgreSQL database with 100,000 products
 * (seeded set-based like the admin bench, bench/support/scale-database.ts), and what a shopper does
 * timed through the real app (`app.request`, JSON or the server-rendered HTML included): the
 * product list's first page, each filter the grid offers (gender, category, size, price order, and
 * all of them together, a size a category rarely comes in and one it never does), page 50 reached
 * by following the list's cursors as Show more does, the list's last page, a product's details,
 * and the landing page `/`, a filtered page and a product URL rendered by the server (the built
 * app: `--dist=DIR`, default dist/). Before each request a `catalog` live event (what every product
 * change and checkout sends) empties the catalogue's and the pages' caches, so the figures are the
 * database and render path the first visitor after a change takes, not a cache hit.
 * 3 warm-up requests, then N = 20 timed runs each; median and p95.
 *
 * The baseline is the same steps on 1,000 products (`--base-products`) in the same database and
 * run, measured first. The figures are named by the catalogue's size ("storefront at 1,000,000
 * products: ..."), so runs at two sizes keep both in bench/results.json. Targets: every median and
 * p95 under 300 ms (the admin bench's target), and the list never sent whole: the first page's
 * bytes (and the landing page's) within 10% of the same at the baseline's size. At 1,000,000
 * products and more the p95s of the list API are to stay under 20 ms and those of the landing and
 * filtered pages rendered by the server under 50 ms (a product's details and URL keep 300 ms).
 *
 *   npx tsx bench/storefront-scale.ts [--products=100000] [--base-products=1000] [--runs=20]
 *     [--dist=dist] [--keep]
 *
 * The PostgreSQL server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; a `shop_bench_<random>` database is created on it
 * and dropped at the end (`--keep` leaves it). Exits 1 when a target is missed.
 */
// First: React as production runs it (`npm start` sets NODE_ENV=production), before react-router
// loads it with the app; without it the server-rendered pages were React's development build.
import './support/production-env';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { PRODUCT_PAGE_SIZE, type ProductSort } from '../src/common/catalog-query';
import type { ProductPage } from '../src/common/schemas/product';
import { encodeCursor } from '../src/server/modules/catalog/product-cursor';
import { startFakeMarketFeeds } from '../tests/fakes/market-feeds';
import { figure, reportFigures, type Figure } from './support/figures';
import {
  benchArgs,
  openBenchShop,
  seedScale,
  summarise,
  type BenchShop,
  type Timing,
} from './support/scale-database';
import { createScratchDatabase, PG_SERVER_URL } from './support/shop-process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Every median and p95 (the admin bench's target); at MILLION products and more, tighter p95s below. */
const TARGET_MS = 300;
const MILLION = 1_000_000;
/** p95 at a million products: the product list API, and the landing and filtered pages rendered by the server. */
const LIST_P95_AT_MILLION_MS = 20;
const PAGE_P95_AT_MILLION_MS = 50;
/** The first page at 100,000 products may be at most this much bigger than at 1,000 (longer ids and titles). */
const MAX_SIZE_RATIO = 1.1;
const WARMUP = 3;

const { args, intArg, flag } = benchArgs();
const PRODUCTS = intArg('products', 100_000);
const RUNS = intArg('runs', 20);
const BASE_PRODUCTS = Math.min(intArg('base-products', 1_000), PRODUCTS);
const KEEP = flag('keep');
const DIST = path.resolve(ROOT, args.get('dist') ?? 'dist');

interface Context {
  /** A product from the middle of the catalogue (newest first). */
  productId: string;
  /** The cursor of page 50 (followed from page 1), and of the last page of each order. */
  page50: string;
  lastNewest: string;
  lastPriceAsc: string;
}

interface Step {
  name: string;
  path: (ctx: Context) => string;
  html?: boolean;
  /** The p95 target at a million products and more: 'list' (the list API) or 'page' (a storefront page). */
  tight?: 'list' | 'page';
}

const STEPS: Step[] = [
  { name: 'list, first page', path: () => '/api/products', tight: 'list' },
  { name: 'list, gender', path: () => '/api/products?gender=womens', tight: 'list' },
  {
    name: 'list, category',
    path: () => '/api/products?gender=womens&category=womens-leggings',
    tight: 'list',
  },
  { name: 'list, size', path: () => '/api/products?size=XL', tight: 'list' },
  { name: 'list, price low to high', path: () => '/api/products?sort=price-asc', tight: 'list' },
  { name: 'list, price high to low', path: () => '/api/products?sort=price-desc', tight: 'list' },
  {
    name: 'list, every filter',
    path: () => '/api/products?gender=mens&category=mens-jackets&size=XL&sort=price-asc',
    tight: 'list',
  },
  {
    // About one in a thousand leggings comes in XL (seedProducts): few matches among many.
    name: 'list, rare size in a category',
    path: () => '/api/products?category=womens-leggings&size=XL&sort=price-asc',
    tight: 'list',
  },
  {
    // No men's jacket comes in XS: the facets say 0, a shared or crawled URL still asks.
    name: 'list, no match',
    path: () => '/api/products?category=mens-jackets&size=XS',
    tight: 'list',
  },
  { name: 'list, page 50', path: (c) => `/api/products?cursor=${c.page50}`, tight: 'list' },
  { name: 'list, last page', path: (c) => `/api/products?cursor=${c.lastNewest}`, tight: 'list' },
  {
    name: 'list, last page by price',
    path: (c) => `/api/products?sort=price-asc&cursor=${c.lastPriceAsc}`,
    tight: 'list',
  },
  { name: 'product details', path: (c) => `/api/products/${c.productId}` },
  { name: 'landing page (SSR)', path: () => '/', html: true, tight: 'page' },
  {
    name: 'filtered page (SSR)',
    path: () => '/?gender=womens&category=womens-leggings&size=M&sort=price-asc',
    html: true,
    tight: 'page',
  },
  { name: 'product URL (SSR)', path: (c) => `/products/${c.productId}`, html: true },
];

/** The figures' names say the catalogue's size: a run at another size adds its figures beside these. */
const GROUP = `storefront at ${PRODUCTS.toLocaleString('en-US')} products`;

function p95Target(step: Step): number {
  if (PRODUCTS < MILLION || !step.tight) return TARGET_MS;
  return step.tight === 'list' ? LIST_P95_AT_MILLION_MS : PAGE_P95_AT_MILLION_MS;
}

/** The cursor that starts the last page of `sort`: the key of the product just before it. */
async function lastPageCursor(shop: BenchShop, sort: ProductSort, total: number): Promise<string> {
  const lastPageSize = total % PRODUCT_PAGE_SIZE || PRODUCT_PAGE_SIZE;
  let query = shop.deps.database.db
    .selectFrom('products')
    .select([
      'id',
      'price_cents',
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('created_key'),
    ]);
  if (sort === 'price-asc') query = query.orderBy('price_cents', 'asc');
  const row = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(total - lastPageSize - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  return encodeCursor({ priceCents: row.price_cents, createdAt: row.created_key, id: row.id }, sort);
}

async function contextOf(shop: BenchShop, total: number): Promise<Context> {
  let cursor: string | null = null;
  for (let page = 1; page < 50; page++) {
    const res = await shop.app.request(`/api/products${cursor ? `?cursor=${cursor}` : ''}`);
    const body = (await res.json()) as ProductPage;
    if (!body.nextCursor) throw new Error(`the list ended at page ${page}`);
    cursor = body.nextCursor;
  }
  const middle = await shop.deps.database.db
    .selectFrom('products')
    .select('id')
    .orderBy('created_at', 'desc')
    .offset(Math.floor(total / 2))
    .limit(1)
    .executeTakeFirstOrThrow();
  return {
    productId: middle.id,
    page50: cursor!,
    lastNewest: await lastPageCursor(shop, 'newest', total),
    lastPriceAsc: await lastPageCursor(shop, 'price-asc', total),
  };
}

type StepResult = Timing & { bytes: number };

/**
 * What an admin's product edit does to the caches: a `catalog` live event, which empties the
 * catalogue's prepared answers and the server-rendered pages' cache. Returns once it has reached
 * this instance's subscribers (ours subscribes last, so every cache has been emptied by then): the
 * request timed next pays the database and the render, as the first visitor after a change does.
 */
async function announceChange(shop: BenchShop, productId: string): Promise<void> {
  const delivered = new Promise<void>((resolve) => {
    const stop = shop.deps.events.subscribe(['catalog'], () => {
      stop();
      resolve();
    });
  });
  await shop.deps.events.publish('catalog', { type: 'product.updated', data: { id: productId } });
  await delivered;
}

async function measure(shop: BenchShop, total: number, label: string) {
  const ctx = await contextOf(shop, total);
  const results: Record<string, StepResult> = {};
  for (const step of STEPS) {
    const url = step.path(ctx);
    const once = async () => {
      await announceChange(shop, ctx.productId);
      const started = performance.now();
      const res = await shop.app.request(url, {
        headers: { accept: step.html ? 'text/html' : 'application/json' },
      });
      const body = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
      return { ms, body };
    };
    for (let i = 0; i < WARMUP; i++) await once();
    const samples: number[] = [];
    let body = '';
    for (let i = 0; i < RUNS; i++) {
      const r = await once();
      samples.push(r.ms);
      body = r.body;
    }
    if (!step.html) checkPage(step.name, body, total);
    results[step.name] = { ...summarise(samples), bytes: Buffer.byteLength(body) };
  }
  console.log(
    `measured ${label} (load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')})`,
  );
  return results;
}

/** A list answer is one page of at most PRODUCT_PAGE_SIZE products, whatever the catalogue's size. */
function checkPage(name: string, body: string, total: number) {
  const parsed = JSON.parse(body) as Partial<ProductPage>;
  if (!Array.isArray(parsed.products)) return; // product details
  const empty = parsed.products.length === 0 && parsed.total === 0;
  if ((parsed.products.length === 0 && !empty) || parsed.products.length > PRODUCT_PAGE_SIZE)
    throw new Error(`${name}: ${parsed.products.length} products in one page`);
  if (name === 'list, first page' && parsed.total !== total)
    throw new Error(`${name}: total ${parsed.total}, expected ${total}`);
}

async function main() {
  for (const file of [path.join(DIST, 'web', 'server', 'index.js'), path.join(DIST, 'server', 'main.js')]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`npm run build\` first (or pass --dist=DIR)`);
  }
  const database = await createScratchDatabase();
  console.log(`database ${database.name} on ${new URL(PG_SERVER_URL).host}; the built app from ${DIST}`);
  const feeds = await startFakeMarketFeeds();
  let shop: BenchShop | undefined;
  let failed = false;
  try {
    shop = await openBenchShop(database.url, {
      env: { MARKET_DEX_URL: feeds.dexUrl, MARKET_PRICE_URL: feeds.priceUrl, LOG_LEVEL: 'error' },
      app: { webDir: path.join(DIST, 'web') },
    });
    const log = (line: string) => console.log(line);
    const baseSeconds = await seedScale(database.url, { products: [1, BASE_PRODUCTS] }, log);
    const baseline = await measure(shop, BASE_PRODUCTS, `${BASE_PRODUCTS.toLocaleString('en-US')} products`);
    const largeSeconds = await seedScale(database.url, { products: [BASE_PRODUCTS + 1, PRODUCTS] }, log);
    log(`seeded in ${baseSeconds.toFixed(1)} s + ${largeSeconds.toFixed(1)} s`);
    const large = await measure(shop, PRODUCTS, `${PRODUCTS.toLocaleString('en-US')} products`);

    const pad = (s: string | number, n: number) => String(s).padEnd(n);
    const padL = (s: string | number, n: number) => String(s).padStart(n);
    console.log(
      `\n${pad('step', 28)}${padL('baseline', 10)}${padL('median', 9)}${padL('p95', 9)}${padL('max', 9)}${padL('bytes', 9)}${padL('base bytes', 12)}`,
    );
    const figures: Figure[] = [];
    for (const step of STEPS) {
      const b = baseline[step.name]!;
      const l = large[step.name]!;
      console.log(
        `${pad(step.name, 28)}${padL(b.median, 10)}${padL(l.median, 9)}${padL(l.p95, 9)}${padL(l.max, 9)}${padL(l.bytes, 9)}${padL(b.bytes, 12)}`,
      );
      figures.push(
        figure(`${GROUP}: ${step.name} median`, l.median, 'ms', {
          baseline: b.median,
          target: ['<', TARGET_MS],
        }),
        figure(`${GROUP}: ${step.name} p95`, l.p95, 'ms', {
          baseline: b.p95,
          target: ['<', p95Target(step)],
        }),
      );
    }
    for (const [step, what] of [
      ['list, first page', 'first page of the list'],
      ['landing page (SSR)', 'landing page HTML'],
    ] as const) {
      const b = baseline[step]!.bytes;
      const l = large[step]!.bytes;
      figures.push(
        figure(`${GROUP}: ${what}, bytes`, l, 'B', { baseline: b }),
        figure(`${GROUP}: ${what}, size vs the baseline's`, l / b, 'x', {
          baseline: 1,
          target: ['<=', MAX_SIZE_RATIO],
        }),
      );
    }
    console.log('');
    reportFigures(figures);
    failed = figures.some((f) => f.met === false);
  } finally {
    await shop?.close();
    await feeds.close();
    if (KEEP) console.log(`kept ${database.url}`);
    else await database.drop();
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
