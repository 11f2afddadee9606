/**
 * Admin back office at scale (issue 5): seeds a fresh PostgreSQL database with 1,000,000 orders
 * (1 to 3 items each, ~2,000,000 order items, 200,000 customers over two years) and 100,000
 * products, then times every admin read endpoint through the real app (`app.request`, admin
 * session, JSON serialisation included): 3 warm-up requests, then N = 20 timed runs each; median
 * and p95. The same endpoints are timed first on a baseline of 10,000 orders and 1,000 products in
 * the same database, and the ratio large/baseline is reported. Target: every median and p95 under
 * 300 ms.
 *
 *   npx tsx bench/admin-scale.ts [--orders=1000000] [--customers=orders/5] [--products=100000] [--runs=20] [--keep]
 *
 * The PostgreSQL server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres. A database `shop_bench_<random>` is created on it
 * and dropped at the end (`--keep` leaves it, and prints its URL). Seeding runs set-based SQL
 * (generate_series) with triggers off (session_replication_role = replica, so a superuser or the
 * database owner with that right is needed), then rebuilds the admin summary and search tables and runs
 * VACUUM ANALYZE — the state a bulk import leaves a real shop in.
 *
 * Output: a table on stdout, bench/results/admin-scale.json, and two figures per endpoint for
 * `npm run bench` (median and p95, each with the baseline's own as its baseline; target < 300 ms).
 * Exits 1 when a target is missed (the figures are still written). Seeding the full size takes
 * about 2 minutes on a quiet 2-vCPU machine (bench/support/scale-database.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure, reportFigures, type Figure } from './support/figures';
import {
  adminSession,
  benchArgs,
  openBenchShop,
  seedAdminExtras,
  seedScale,
  summarise,
  type Timing,
} from './support/scale-database';
import { createScratchDatabase, PG_SERVER_URL } from './support/shop-process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results', 'admin-scale.json');
const TARGET_MS = 300;
const WARMUP = 3;

const { intArg, flag } = benchArgs();
const ORDERS = intArg('orders', 1_000_000);
const PRODUCTS = intArg('products', 100_000);
const RUNS = intArg('runs', 20);
const BASE_ORDERS = Math.min(10_000, ORDERS);
const BASE_PRODUCTS = Math.min(1_000, PRODUCTS);
const KEEP = flag('keep');
const CUSTOMERS = intArg('customers', Math.max(1, Math.round(ORDERS / 5)));

// Timing -----------------------------------------------------------------------------------------

const ENDPOINTS: Array<{ name: string; path: (ctx: { orderPrefix: string; email: string }) => string }> = [
  { name: 'dashboard', path: () => '/api/admin/dashboard' },
  { name: 'analytics', path: () => '/api/admin/analytics' },
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

async function main() {
  const log = (line: string) => console.log(line);
  const database = await createScratchDatabase();
  log(`database ${database.name} on ${new URL(PG_SERVER_URL).host}`);
  let failed = false;
  const shop = await openBenchShop(database.url).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });
  const db = shop.deps.database.db;

  try {
    const { cookie, userId } = await adminSession(shop);
    const load: Record<string, number[]> = {};
    const measure = async (label: string) => {
      load[`${label}Before`] = loadavg().map((n) => Math.round(n * 100) / 100);
      const row = await db
        .selectFrom('orders')
        .select(['id', 'shipping_email'])
        .orderBy('created_at', 'desc')
        .offset(123)
        .limit(1)
        .executeTakeFirstOrThrow();
      const ctx = { orderPrefix: row.id.slice(0, 8), email: row.shipping_email };
      const results: Record<string, Timing & { path: string; bytes: number }> = {};
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
      load[`${label}After`] = loadavg().map((n) => Math.round(n * 100) / 100);
      log(`measured ${label} (load average ${load[`${label}After`]!.join(', ')})`);
      return results;
    };

    log(
      `seeding the baseline: ${BASE_ORDERS.toLocaleString('en-US')} orders, ${BASE_PRODUCTS.toLocaleString('en-US')} products`,
    );
    const baseSeconds = await seedScale(
      database.url,
      { products: [1, BASE_PRODUCTS], orders: { range: [1, BASE_ORDERS], customers: CUSTOMERS } },
      log,
    );
    await seedAdminExtras(database.url, userId);
    const baseline = await measure('baseline');

    log(
      `seeding up to ${ORDERS.toLocaleString('en-US')} orders and ${PRODUCTS.toLocaleString('en-US')} products`,
    );
    const largeSeconds = await seedScale(
      database.url,
      {
        products: [BASE_PRODUCTS + 1, PRODUCTS],
        orders: { range: [BASE_ORDERS + 1, ORDERS], customers: CUSTOMERS },
      },
      log,
    );
    log(`seeded in ${Math.round(baseSeconds)} s + ${Math.round(largeSeconds)} s`);
    const counts = await db
      .selectNoFrom((eb) => [
        eb.selectFrom('orders').select(eb.fn.countAll().as('n')).as('orders'),
        eb.selectFrom('order_items').select(eb.fn.countAll().as('n')).as('items'),
        eb.selectFrom('products').select(eb.fn.countAll().as('n')).as('products'),
        eb.selectFrom('admin_customer_stats').select(eb.fn.countAll().as('n')).as('customers'),
      ])
      .executeTakeFirstOrThrow();
    const large = await measure('large');

    // Report ---------------------------------------------------------------------------------------
    const rows = ENDPOINTS.map((e) => {
      const b = baseline[e.name]!;
      const l = large[e.name]!;
      const ok = l.median < TARGET_MS && l.p95 < TARGET_MS;
      if (!ok) failed = true;
      return {
        endpoint: e.name,
        path: l.path.replace(/search=[^&]+/, 'search=…'),
        baselineMedianMs: b.median,
        baselineP95Ms: b.p95,
        medianMs: l.median,
        p95Ms: l.p95,
        maxMs: l.max,
        ratio: Math.round((l.median / Math.max(b.median, 0.1)) * 10) / 10,
        ok,
      };
    });
    const pad = (s: string | number, n: number) => String(s).padEnd(n);
    const padL = (s: string | number, n: number) => String(s).padStart(n);
    console.log(
      `\n${pad('endpoint', 30)}${padL('baseline', 10)}${padL('median', 9)}${padL('p95', 9)}${padL('max', 9)}${padL('ratio', 8)}  target`,
    );
    for (const r of rows) {
      console.log(
        `${pad(r.endpoint, 30)}${padL(r.baselineMedianMs, 10)}${padL(r.medianMs, 9)}${padL(r.p95Ms, 9)}${padL(r.maxMs, 9)}${padL(`${r.ratio}x`, 8)}  ${r.ok ? 'ok' : `OVER ${TARGET_MS} ms`}`,
      );
    }
    const result = {
      benchmark: 'admin-scale',
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(totalmem() / 2 ** 30),
        // 1/5/15-minute load averages around each measurement: other work on the machine shows here.
        loadAverage: load,
      },
      postgres: (
        await db.selectNoFrom((eb) => eb.fn<string>('version', []).as('v')).executeTakeFirstOrThrow()
      ).v,
      runsPerEndpoint: RUNS,
      warmupRuns: WARMUP,
      targetMs: TARGET_MS,
      data: {
        baseline: { orders: BASE_ORDERS, products: BASE_PRODUCTS },
        large: {
          orders: Number(counts.orders),
          orderItems: Number(counts.items),
          products: Number(counts.products),
          customers: Number(counts.customers),
        },
        seedSeconds: { baseline: Math.round(baseSeconds), large: Math.round(largeSeconds) },
      },
      endpoints: rows,
      allWithinTarget: !failed,
    };
    mkdirSync(path.dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`Written: ${path.relative(ROOT, RESULTS)}\n`);

    // One median and one p95 per endpoint, each against the same endpoint on the baseline data.
    const figures: Figure[] = rows.flatMap((r) => [
      figure(`admin at scale: ${r.endpoint} median`, r.medianMs, 'ms', {
        baseline: r.baselineMedianMs,
        target: ['<', TARGET_MS],
      }),
      figure(`admin at scale: ${r.endpoint} p95`, r.p95Ms, 'ms', {
        baseline: r.baselineP95Ms,
        target: ['<', TARGET_MS],
      }),
    ]);
    reportFigures(figures);
  } finally {
    await shop.close();
    if (KEEP) {
      console.log(`kept ${database.url}`);
    } else {
      await database.drop();
    }
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
