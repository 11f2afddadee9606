/**
 * Admin back office at scale: seeds a database with N orders (1 to 3 items each, about 2N order
 * items, from --customers customers over two years) and --products products, set-based, then times
 * every admin read endpoint through the real app (`app.request`, admin session, JSON serialisation
 * included): 3 warm-up requests, then --runs timed runs each; median and p95. It also times how
 * fresh the dashboard is: a real card order paid (checkout through the API, the Stripe stand-in's
 * hosted page paid, its signed checkout.session.completed webhook handled by the shop) until the
 * dashboard API answers with it counted.
 *
 *   npx tsx bench/admin-scale.ts [--orders=1000000] [--customers=orders/5] [--products=100000] [--runs=20]
 *                                [--backend=postgres|pglite] [--database-url=URL | --data-dir=DIR]
 *                                [--fresh-runs=10] [--seed-only] [--keep]
 *
 * Backends. postgres (default): the server from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; seeding needs a superuser or the database owner
 * with the right to set session_replication_role. pglite: the embedded database the shop runs on by
 * default, in a data directory opened as the shop opens it (DATA_DIR/pglite), seeded in process
 * with the same SQL (bench/support/scale-database.ts: generate_series, triggers off, summary and
 * search tables rebuilt, VACUUM ANALYZE: the state a bulk import leaves a shop in).
 *
 * A seeded database kept and used again (seeding 10M orders takes about half an hour):
 * --database-url=postgres://.../shop_admin_10m (created when missing) or --data-dir=/path (PGlite).
 * Such a database is seeded once and kept; a later run with the same sizes skips the seeding (a
 * table bench_scale_seed records them; other sizes are refused). --seed-only seeds and stops, so
 * the seeding can run outside the bench lock and the timing inside it. The freshness runs add a
 * product and one order per run to it. Without either option a scratch database is seeded and
 * dropped at the end (--keep leaves it and prints where).
 *
 * Baseline: the same requests on 10,000 orders and 1,000 products, in a scratch database of the
 * same backend seeded the same way, measured first in the same run.
 *
 * Targets (every median and p95, by the run's size):
 *   - below 1,000,000 orders (development runs): < 300 ms for every endpoint;
 *   - at 1,000,000 orders and more (1M is the default and the PGlite size; 10M the capacity plan's):
 *     < 150 ms for the dashboard and analytics, < 100 ms for every list, search, filter, sort and
 *     aggregate. The plan states them at 10M; a smaller run that misses them would miss at 10M too.
 *   - freshness: the new paid order counted by the dashboard API within 2 s (median and max of
 *     --fresh-runs, default 10).
 *
 * Output: a table on stdout, bench/results/admin-scale-<size>-<backend>.json, and figures for `npm
 * run bench` named after the size and backend ("admin at 10M orders, PostgreSQL: dashboard p95"), so
 * runs at other sizes or on the other backend sit beside them in bench/results.json. Exits 1 when a
 * target is missed (the figures are still written).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { AdminDashboard } from '../src/common/schemas/admin-dashboard';
import type { CheckoutResponse } from '../src/common/schemas/checkout';
import { createApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { closeDeps, createDeps } from '../src/server/deps';
import { createLogger } from '../src/server/lib/logger';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../tests/fakes/stripe-server';
import { figure, reportFigures, type Figure } from './support/figures';
import { BENCH_SHIPPING } from './support/http-client';
import {
  benchArgs,
  seedAdminExtras,
  seedClient,
  seedScale,
  summarise,
  type BenchShop,
  type SeedSql,
  type Timing,
} from './support/scale-database';
import { createScratchDatabase, PG_SERVER_URL } from './support/shop-process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WARMUP = 3;
const MILLION = 1_000_000;
/** Below a million orders: every endpoint. */
const SMALL_TARGET_MS = 300;
/** At a million orders and more: lists, searches, filters, sorts and aggregates... */
const LIST_TARGET_MS = 100;
/** ...and the two screens of figures. */
const FIGURES_TARGET_MS = 150;
const FRESH_TARGET_MS = 2_000;
/** How often the freshness run asks the dashboard, as a screen that polls would (20 ms). */
const FRESH_POLL_MS = 20;

const { args, intArg, flag } = benchArgs();
const ORDERS = intArg('orders', 1_000_000);
const PRODUCTS = intArg('products', 100_000);
const RUNS = intArg('runs', 20);
const FRESH_RUNS = intArg('fresh-runs', 10);
const BASE_ORDERS = Math.min(10_000, ORDERS);
const BASE_PRODUCTS = Math.min(1_000, PRODUCTS);
const KEEP = flag('keep');
const SEED_ONLY = flag('seed-only');
const CUSTOMERS = intArg('customers', Math.max(1, Math.round(ORDERS / 5)));
const BACKEND = args.get('backend') ?? 'postgres';
if (BACKEND !== 'postgres' && BACKEND !== 'pglite') throw new Error('--backend must be postgres or pglite');
const DATABASE_URL = args.get('database-url');
const DATA_DIR = args.get('data-dir');
if (DATABASE_URL && BACKEND !== 'postgres') throw new Error('--database-url is for --backend=postgres');
if (DATA_DIR && BACKEND !== 'pglite') throw new Error('--data-dir is for --backend=pglite');

/** 10M, 1M, 100k, 12,345. */
function sizeLabel(n: number): string {
  if (n >= MILLION && n % 100_000 === 0) return `${n / MILLION}M`;
  if (n >= 1_000 && n % 1_000 === 0) return `${n / 1_000}k`;
  return n.toLocaleString('en-US');
}
const BACKEND_LABEL = BACKEND === 'pglite' ? 'PGlite' : 'PostgreSQL';
/** The figures' group: a run at another size or on the other backend adds its own beside these. */
const GROUP = `admin at ${sizeLabel(ORDERS)} orders, ${BACKEND_LABEL}`;
const RESULTS = path.join(
  ROOT,
  'bench',
  'results',
  `admin-scale-${sizeLabel(ORDERS).toLowerCase()}-${BACKEND}.json`,
);

interface Endpoint {
  name: string;
  path: (ctx: { orderPrefix: string; email: string }) => string;
  /** The dashboard and analytics: screens of figures, a looser target at scale. */
  figures?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'dashboard', path: () => '/api/admin/dashboard', figures: true },
  { name: 'analytics', path: () => '/api/admin/analytics', figures: true },
  { name: 'customers (last order)', path: () => '/api/admin/customers' },
  { name: 'customers (total spent)', path: () => '/api/admin/customers?sort=total_spent' },
  { name: 'customers (total orders)', path: () => '/api/admin/customers?sort=total_orders' },
  { name: 'customers (page 100)', path: () => '/api/admin/customers?page=100' },
  {
    name: 'customers (search email)',
    path: ({ email }) => `/api/admin/customers?search=${encodeURIComponent(email)}`,
  },
  { name: 'customers (search name)', path: () => '/api/admin/customers?search=garcia' },
  { name: 'customers (search rare)', path: () => '/api/admin/customers?search=customer1234' },
  { name: 'customers (search everywhere)', path: () => '/api/admin/customers?search=example' },
  { name: 'orders', path: () => '/api/admin/orders' },
  { name: 'orders (status shipped)', path: () => '/api/admin/orders?status=shipped' },
  { name: 'orders (page 100)', path: () => '/api/admin/orders?page=100' },
  {
    name: 'orders (search email)',
    path: ({ email }) => `/api/admin/orders?search=${encodeURIComponent(email)}`,
  },
  { name: 'orders (search id prefix)', path: ({ orderPrefix }) => `/api/admin/orders?search=${orderPrefix}` },
  { name: 'orders (search item title)', path: () => '/api/admin/orders?search=scuba%20hoodie' },
  { name: 'orders (search name)', path: () => '/api/admin/orders?search=mia%20garcia' },
  { name: 'orders (search rare)', path: () => '/api/admin/orders?search=hoodie%20%234321' },
  { name: 'orders (search everywhere)', path: () => '/api/admin/orders?search=example.com' },
  { name: 'products', path: () => '/api/admin/products' },
  {
    name: 'products (womens leggings)',
    path: () => '/api/admin/products?gender=womens&category=womens-leggings',
  },
  { name: 'products (search)', path: () => '/api/admin/products?search=wunder' },
  { name: 'product categories', path: () => '/api/admin/product-categories' },
  { name: 'audit', path: () => '/api/admin/audit' },
  { name: 'audit (search)', path: () => '/api/admin/audit?search=create_product' },
  { name: 'messages', path: () => '/api/admin/messages?status=unread' },
  { name: 'airdrops', path: () => '/api/admin/airdrops' },
  { name: 'settings', path: () => '/api/admin/settings' },
];

function targetOf(endpoint: Endpoint): number {
  if (ORDERS < MILLION) return SMALL_TARGET_MS;
  return endpoint.figures ? FIGURES_TARGET_MS : LIST_TARGET_MS;
}

// The database and the shop on it ------------------------------------------------------------------

/** Where a database lives: a PostgreSQL URL or a PGlite data directory (the shop's DATA_DIR). */
type Place = { backend: 'postgres'; url: string } | { backend: 'pglite'; dataDir: string };

interface Sizes {
  orders: number;
  customers: number;
  products: number;
}

const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

/**
 * The shop in process on `place` (production mode, demo seed off, quiet), migrated as it starts;
 * card payments go to the Stripe stand-in `stripe`.
 */
async function openShop(place: Place, stripe: FakeStripeServer): Promise<BenchShop> {
  const ownDir = place.backend === 'postgres' ? mkdtempSync(path.join(tmpdir(), 'shop-bench-')) : undefined;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: place.backend === 'pglite' ? place.dataDir : ownDir!,
    ...(place.backend === 'postgres' ? { DATABASE_URL: place.url } : {}),
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    LOCAL_LEDGER: 'demo',
    ANONYMOUS_HOLD_SHARE_PERCENT: '100',
    CHECKOUT_RATE_LIMIT: '100000',
    CHECKOUT_MAX_OPEN_PER_CLIENT: '10000',
    ...stripeEnv(stripe),
  });
  const deps = await createDeps(config, createLogger(config.logLevel));
  const app = createApp(deps);
  return {
    config,
    deps,
    app,
    async close() {
      await closeDeps(deps);
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` with a connection that seeds `place`: its own client on PostgreSQL, the shop's one on PGlite. */
async function withSeedConnection<T>(
  shop: BenchShop,
  place: Place,
  fn: (sql: SeedSql) => Promise<T>,
): Promise<T> {
  if (place.backend === 'postgres') {
    const client = await seedClient(place.url);
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }
  return shop.deps.database.withRawConnection(
    (exec) =>
      fn({
        query: async <R>(text: string, params?: unknown[]) => ({ rows: (await exec(text, params)) as R[] }),
      }),
    { untimed: true },
  );
}

/** The admin's id, created the first time (a kept database has it from its seeding). */
async function ensureAdmin(shop: BenchShop): Promise<string> {
  const existing = await shop.deps.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', ADMIN.email)
    .executeTakeFirst();
  if (existing) return existing.id;
  return (await shop.deps.auth.createUser({ ...ADMIN, role: 'admin' })).id;
}

async function signIn(shop: BenchShop): Promise<string> {
  const res = await shop.app.request('/api/auth/sign-in/email', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shop.config.publicUrl },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * Seeds `place` to `sizes` unless it already holds them (bench_scale_seed, written once the seeding
 * is done); refuses a database that holds other sizes or orders it did not seed. Returns the
 * seconds spent seeding (0 when reused).
 */
async function ensureSeeded(
  shop: BenchShop,
  place: Place,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<number> {
  const db = shop.deps.database.db;
  const marker = await withSeedConnection(shop, place, async (sql) => {
    await sql.query(
      'create table if not exists bench_scale_seed (sizes jsonb not null, seeded_at timestamptz not null)',
    );
    return (await sql.query<{ sizes: Sizes }>('select sizes from bench_scale_seed limit 1')).rows[0]?.sizes;
  });
  if (marker) {
    if (
      marker.orders !== sizes.orders ||
      marker.customers !== sizes.customers ||
      marker.products !== sizes.products
    )
      throw new Error(
        `this database was seeded with ${JSON.stringify(marker)}, not ${JSON.stringify(sizes)}`,
      );
    log(`reusing the database seeded with ${JSON.stringify(marker)}`);
    return 0;
  }
  const anyOrder = await db.selectFrom('orders').select('id').limit(1).executeTakeFirst();
  if (anyOrder)
    throw new Error('this database has orders the bench did not seed (or a seeding that did not finish)');
  log(
    `seeding ${sizes.orders.toLocaleString('en-US')} orders from ${sizes.customers.toLocaleString('en-US')} customers and ${sizes.products.toLocaleString('en-US')} products (${BACKEND_LABEL})`,
  );
  const adminId = await ensureAdmin(shop);
  const started = performance.now();
  await withSeedConnection(shop, place, async (sql) => {
    await seedScale(
      sql,
      { products: [1, sizes.products], orders: { range: [1, sizes.orders], customers: sizes.customers } },
      log,
    );
    await seedAdminExtras(sql, adminId);
    await sql.query('insert into bench_scale_seed (sizes, seeded_at) values ($1::jsonb, now())', [
      JSON.stringify(sizes),
    ]);
  });
  const seconds = (performance.now() - started) / 1000;
  log(`seeded in ${Math.round(seconds)} s`);
  return seconds;
}

/** A PostgreSQL database by URL, created on its server when missing; kept. */
async function ensurePostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`--database-url: a plain lower-case database name, not ${name}`);
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rows.length === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

/** A database for this run: the kept one named by --database-url / --data-dir, or a scratch one. */
async function openPlace(
  kept: string | undefined,
): Promise<{ place: Place; drop(): Promise<void>; where: string }> {
  if (BACKEND === 'postgres') {
    if (kept) {
      await ensurePostgresDatabase(kept);
      return { place: { backend: 'postgres', url: kept }, drop: async () => undefined, where: kept };
    }
    const scratch = await createScratchDatabase();
    return {
      place: { backend: 'postgres', url: scratch.url },
      drop: () => scratch.drop(),
      where: scratch.url,
    };
  }
  if (kept) {
    mkdirSync(kept, { recursive: true });
    return {
      place: { backend: 'pglite', dataDir: path.resolve(kept) },
      drop: async () => undefined,
      where: kept,
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-bench-pglite-'));
  return {
    place: { backend: 'pglite', dataDir: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
    where: dir,
  };
}

// Timing ---------------------------------------------------------------------------------------------

type Results = Record<string, Timing & { path: string; bytes: number }>;

async function measureEndpoints(shop: BenchShop, cookie: string): Promise<Results> {
  const row = await shop.deps.database.db
    .selectFrom('orders')
    .select(['id', 'shipping_email'])
    .orderBy('created_at', 'desc')
    .offset(123)
    .limit(1)
    .executeTakeFirstOrThrow();
  const ctx = { orderPrefix: row.id.slice(0, 8), email: row.shipping_email };
  const results: Results = {};
  for (const endpoint of ENDPOINTS) {
    const url = endpoint.path(ctx);
    const once = async () => {
      const started = performance.now();
      const res = await shop.app.request(url, { headers: { cookie } });
      const body = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
      return { ms, bytes: body.length };
    };
    for (let i = 0; i < WARMUP; i++) await once();
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await once();
      samples.push(r.ms);
      bytes = r.bytes;
    }
    results[endpoint.name] = { ...summarise(samples), path: url, bytes };
  }
  return results;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Freshness: FRESH_RUNS card orders, each started through POST /api/checkout and paid on the Stripe
 * stand-in's hosted page (which delivers the signed checkout.session.completed to the shop's
 * webhook before it answers, as Stripe does soon after). The clock starts when the shopper presses
 * Pay and stops when a dashboard answer counts the order: one more order and its total more revenue.
 */
async function measureFreshness(shop: BenchShop, stripe: FakeStripeServer, cookie: string): Promise<Timing> {
  const product = await shop.deps.database.db
    .insertInto('products')
    .values({
      title: 'Freshness Tank',
      brand: 'Nike',
      price_cents: 3_100,
      images: ['products/tank-800.webp'],
      quantity: FRESH_RUNS,
      sizes: ['M'],
      colors: [],
      gender: 'mens',
      category: 'mens-tanks',
      shipping_weight: '0.3',
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const dashboard = async () => {
    const res = await shop.app.request('/api/admin/dashboard', { headers: { cookie } });
    if (res.status !== 200) throw new Error(`dashboard answered ${res.status}`);
    return ((await res.json()) as AdminDashboard).totals;
  };
  const samples: number[] = [];
  for (let i = 0; i < FRESH_RUNS; i++) {
    const res = await shop.app.request('/api/checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.config.publicUrl },
      body: JSON.stringify({
        items: [{ productId: product.id, size: 'M', quantity: 1 }],
        shippingInfo: { ...BENCH_SHIPPING, email: `fresh${i}@example.com` },
        paymentMethod: 'card',
      }),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`checkout answered ${res.status}: ${text.slice(0, 300)}`);
    const checkout = JSON.parse(text) as CheckoutResponse;
    const session = stripe.lastSession();
    if (session?.session.metadata.reference !== checkout.reference)
      throw new Error('no Stripe session for the checkout');
    const before = await dashboard();
    const started = performance.now();
    const delivery = await stripe.completeSession(session.session.id);
    if (delivery?.status !== 200)
      throw new Error(`the webhook answered ${delivery?.status}: ${delivery?.body}`);
    for (;;) {
      const now = await dashboard();
      if (
        now.orders.value >= before.orders.value + 1 &&
        now.revenueCents.value >= before.revenueCents.value + checkout.amounts.totalCents
      )
        break;
      if (performance.now() - started > 30_000)
        throw new Error('the paid order did not show in the dashboard in 30 s');
      await sleep(FRESH_POLL_MS);
    }
    samples.push(performance.now() - started);
  }
  return summarise(samples);
}

/** Opens a database, seeds it if needed, and (unless --seed-only) measures it. */
async function run(
  label: string,
  sizes: Sizes,
  kept: string | undefined,
  log: (line: string) => void,
): Promise<
  | {
      endpoints: Results;
      fresh: Timing;
      seedSeconds: number;
      counts: Record<string, number>;
      version: string;
    }
  | undefined
> {
  const opened = await openPlace(kept);
  const { place, where } = opened;
  log(`${label}: ${BACKEND_LABEL} at ${where}`);
  const stripe = await startFakeStripe();
  let shop: BenchShop | undefined;
  try {
    shop = await openShop(place, stripe);
    const app = shop.app;
    stripe.setWebhook(async (req) => app.request(req));
    const seedSeconds = await ensureSeeded(shop, place, sizes, log);
    if (SEED_ONLY) return undefined;
    await ensureAdmin(shop);
    const cookie = await signIn(shop);
    const loadBefore = loadavg();
    const endpoints = await measureEndpoints(shop, cookie);
    const fresh = await measureFreshness(shop, stripe, cookie);
    log(
      `measured ${label} (load average ${loadBefore.map((n) => n.toFixed(2)).join(', ')} before, ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')} after)`,
    );
    const db = shop.deps.database.db;
    const counts = await db
      .selectNoFrom((eb) => [
        eb.selectFrom('orders').select(eb.fn.countAll().as('n')).as('orders'),
        eb.selectFrom('order_items').select(eb.fn.countAll().as('n')).as('items'),
        eb.selectFrom('products').select(eb.fn.countAll().as('n')).as('products'),
        eb.selectFrom('admin_customer_stats').select(eb.fn.countAll().as('n')).as('customers'),
      ])
      .executeTakeFirstOrThrow();
    const version = (
      await db.selectNoFrom((eb) => eb.fn<string>('version', []).as('v')).executeTakeFirstOrThrow()
    ).v;
    return {
      endpoints,
      fresh,
      seedSeconds,
      counts: {
        orders: Number(counts.orders),
        orderItems: Number(counts.items),
        products: Number(counts.products),
        customers: Number(counts.customers),
      },
      version,
    };
  } finally {
    await shop?.close();
    await stripe.close();
    if (KEEP || kept) log(`kept ${where}`);
    else await opened.drop();
  }
}

async function main() {
  const log = (line: string) => console.log(line);
  const kept = BACKEND === 'postgres' ? DATABASE_URL : DATA_DIR;
  if (BACKEND === 'postgres') log(`PostgreSQL server ${new URL(PG_SERVER_URL).host}`);
  const largeSizes = { orders: ORDERS, customers: CUSTOMERS, products: PRODUCTS };
  if (SEED_ONLY) {
    await run('large', largeSizes, kept, log);
    return;
  }
  const baseline = (await run(
    'baseline',
    { orders: BASE_ORDERS, customers: CUSTOMERS, products: BASE_PRODUCTS },
    undefined,
    log,
  ))!;
  const large = (await run('large', largeSizes, kept, log))!;

  // Report ---------------------------------------------------------------------------------------
  let failed = false;
  const rows = ENDPOINTS.map((e) => {
    const b = baseline.endpoints[e.name]!;
    const l = large.endpoints[e.name]!;
    const target = targetOf(e);
    const ok = l.median < target && l.p95 < target;
    if (!ok) failed = true;
    return {
      endpoint: e.name,
      path: l.path.replace(/search=[^&]+/, 'search=…'),
      targetMs: target,
      baselineMedianMs: b.median,
      baselineP95Ms: b.p95,
      medianMs: l.median,
      p95Ms: l.p95,
      maxMs: l.max,
      ratio: Math.round((l.median / Math.max(b.median, 0.1)) * 10) / 10,
      ok,
    };
  });
  const freshOk = large.fresh.median < FRESH_TARGET_MS && large.fresh.max < FRESH_TARGET_MS;
  if (!freshOk) failed = true;
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  const padL = (s: string | number, n: number) => String(s).padStart(n);
  console.log(`\n${GROUP}`);
  console.log(
    `${pad('endpoint', 36)}${padL('base p95', 10)}${padL('median', 9)}${padL('p95', 9)}${padL('max', 9)}${padL('ratio', 8)}  target`,
  );
  for (const r of rows) {
    console.log(
      `${pad(r.endpoint, 36)}${padL(r.baselineP95Ms, 10)}${padL(r.medianMs, 9)}${padL(r.p95Ms, 9)}${padL(r.maxMs, 9)}${padL(`${r.ratio}x`, 8)}  < ${r.targetMs} ms ${r.ok ? 'ok' : 'MISSED'}`,
    );
  }
  console.log(
    `${pad('new paid order in the dashboard', 36)}${padL(baseline.fresh.max, 10)}${padL(large.fresh.median, 9)}${padL('', 9)}${padL(large.fresh.max, 9)}${padL('', 8)}  < ${FRESH_TARGET_MS} ms ${freshOk ? 'ok' : 'MISSED'}`,
  );
  const result = {
    benchmark: 'admin-scale',
    group: GROUP,
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
    },
    backend: BACKEND,
    database: large.version,
    runsPerEndpoint: RUNS,
    warmupRuns: WARMUP,
    data: {
      baseline: baseline.counts,
      large: large.counts,
      seedSeconds: { baseline: Math.round(baseline.seedSeconds), large: Math.round(large.seedSeconds) },
      reused: Boolean(kept) && large.seedSeconds === 0,
    },
    endpoints: rows,
    freshness: {
      runs: FRESH_RUNS,
      baseline: baseline.fresh,
      large: large.fresh,
      targetMs: FRESH_TARGET_MS,
      ok: freshOk,
    },
    allWithinTarget: !failed,
  };
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`Written: ${path.relative(ROOT, RESULTS)}\n`);

  // One median and one p95 per endpoint, each against the same endpoint on the baseline data.
  const figures: Figure[] = rows.flatMap((r) => [
    figure(`${GROUP}: ${r.endpoint} median`, r.medianMs, 'ms', {
      baseline: r.baselineMedianMs,
      target: ['<', r.targetMs],
    }),
    figure(`${GROUP}: ${r.endpoint} p95`, r.p95Ms, 'ms', {
      baseline: r.baselineP95Ms,
      target: ['<', r.targetMs],
    }),
  ]);
  figures.push(
    figure(`${GROUP}: new paid order in the dashboard, median`, large.fresh.median, 'ms', {
      baseline: baseline.fresh.median,
      target: ['<', FRESH_TARGET_MS],
    }),
    figure(`${GROUP}: new paid order in the dashboard, slowest of ${FRESH_RUNS}`, large.fresh.max, 'ms', {
      baseline: baseline.fresh.max,
      target: ['<', FRESH_TARGET_MS],
    }),
  );
  reportFigures(figures);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
