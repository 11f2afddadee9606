/**
 * The scale benches' data: a scratch PostgreSQL database (createScratchDatabase in
 * ./shop-process.ts) seeded set-based (generate_series, in batches, triggers off) the way a bulk
 * import fills a real shop, and the shop itself in process on it (the real config, deps and app).
 * Used by bench/admin-scale.ts and bench/storefront-scale.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp, type CreateAppOptions } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { closeDeps, createDeps, type AppDeps } from '../../src/server/deps';
import { createLogger } from '../../src/server/lib/logger';

/** `--name=value` arguments; `intArg` refuses anything but a positive integer. */
export function benchArgs(argv = process.argv.slice(2)) {
  const args = new Map(
    argv.map((a) => {
      const [k, v] = a.replace(/^--/, '').split('=');
      return [k!, v ?? 'true'] as const;
    }),
  );
  return {
    args,
    intArg: (name: string, fallback: number): number => {
      const v = args.get(name);
      const n = v === undefined ? fallback : Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
      return n;
    },
    flag: (name: string) => args.get(name) === 'true',
  };
}

/**
 * What the seeding needs of a connection: one SQL statement at a time, with or without parameters.
 * A pg.Client is one; so is PGlite (the embedded database, seeded with the same SQL).
 */
export interface SeedSql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: R[] }>;
}

/** A client on `url` for seeding (errors of a lost connection surface on the query). */
export async function seedClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

// Seeding ----------------------------------------------------------------------------------------

export const CATEGORIES = [
  'womens-leggings',
  'womens-bras',
  'womens-tanks',
  'womens-shorts',
  'womens-pants',
  'womens-jackets',
  'womens-hoodies',
  'womens-accessories',
  'womens-dresses',
  'womens-skirts',
  'mens-tops',
  'mens-tanks',
  'mens-bottoms',
  'mens-shorts',
  'mens-pants',
  'mens-jackets',
  'mens-hoodies',
  'mens-accessories',
] as const;
const sqlArray = (values: readonly string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;
const WOMENS = sqlArray(CATEGORIES.filter((c) => c.startsWith('womens')));
const MENS = sqlArray(CATEGORIES.filter((c) => c.startsWith('mens')));
const ALL_CATEGORIES = sqlArray(CATEGORIES);
const BRANDS = sqlArray([
  'Lululemon',
  'Alo Yoga',
  'Gymshark',
  'Nike',
  'Vuori',
  'Outdoor Voices',
  'Beyond Yoga',
]);
const ITEM_NAMES = sqlArray([
  'Align Legging',
  'Define Jacket',
  'Energy Bra',
  'Swiftly Tee',
  'Pace Short',
  'Scuba Hoodie',
  'Wunder Pant',
  'Tank Top',
]);
const FIRST = sqlArray([
  'Ava',
  'Liam',
  'Mia',
  'Noah',
  'Zoe',
  'Ethan',
  'Ivy',
  'Lucas',
  'Ella',
  'Mason',
  'Aria',
  'Leo',
]);
const LAST = sqlArray([
  'Smith',
  'Jones',
  'Garcia',
  'Brown',
  'Miller',
  'Davis',
  'Lopez',
  'Wilson',
  'Moore',
  'Clark',
  'Lewis',
]);
const TWO_YEARS_S = 730 * 86_400;
/** Rows per INSERT ... SELECT. */
const BATCH = 100_000;

/**
 * Products g = from..to: titles, brands, prices (10 to 160 USD), stock 0..19, half women's and half
 * men's over every category, created over two years. Sizes: S-M-L on half of them, XS-S on a
 * quarter, M-L-XL on the last quarter, so a size filter keeps 25% (XS, XL) to 75% (S, M, L). The sizes follow
 * the gender and category: women's come in S-M-L but one in 997 of them in every size (a women's
 * category has a few in XS and XL, a rare match among many products), and some men's categories
 * have none in a size (a men's jacket is always M-L-XL).
 */
export async function seedProducts(client: SeedSql, from: number, to: number): Promise<void> {
  for (let start = from; start <= to; start += BATCH) {
    await client.query(
      `insert into products (title, description, brand, price_cents, images, quantity, sizes, colors, gender, category,
                             shipping_weight, created_at, updated_at)
       select (${ITEM_NAMES})[1 + g % 8] || ' #' || g,
              'Pre-loved and authenticated. Item ' || g || ', condition like new.',
              (${BRANDS})[1 + g % 7],
              1000 + (g::bigint * 37) % 15000,
              array['products/bench-' || g || '-800.webp'],
              g % 20,
              case when g % 1994 = 0 then array['XS','S','M','L','XL']
                   when g % 4 = 1 then array['XS','S'] when g % 4 = 3 then array['M','L','XL']
                   else array['S','M','L'] end,
              array['Black','Rose'],
              case when g % 2 = 0 then 'womens' else 'mens' end,
              case when g % 2 = 0 then (${WOMENS})[1 + (g / 2) % 10] else (${MENS})[1 + (g / 2) % 8] end,
              0.5,
              now() - ((g::bigint * 104729) % ${TWO_YEARS_S}) * interval '1 second',
              now() - ((g::bigint * 104729) % ${TWO_YEARS_S}) * interval '1 second'
         from generate_series($1::int, $2::int) g`,
      [start, Math.min(to, start + BATCH - 1)],
    );
  }
}

/** Orders g = from..to (1 to 3 items each) by `customers` customers over two years; 1% failed. */
export async function seedOrders(
  client: SeedSql,
  from: number,
  to: number,
  customers: number,
): Promise<void> {
  await client.query(
    `with src as materialized (
       select gen_random_uuid() as id, g, 1 + g % 3 as k, 1500 + (g::bigint * 7919) % 9000 as p,
              'customer' || ((g::bigint * 2654435761) % ${customers}) || '@example.com' as email,
              case when g % 100 = 0 then 'failed' else (array['pending','shipped','completed'])[1 + g % 3] end as status,
              (array['card','card','sol','aelo'])[1 + (g / 7) % 4] as method,
              now() - ((g::bigint * 7919) % ${TWO_YEARS_S}) * interval '1 second' as at
         from generate_series($1::int, $2::int) g
     ), orders_in as (
       insert into orders (id, status, payment_method, subtotal_cents, shipping_cents, discount_cents, amount_cents,
                           shipping_info, shipping_email, tracking_number, transaction_signature,
                           refund_required, refund_reason, created_at, updated_at)
       select id, status, method, k * p, case when k * p >= 5000 then 0 else 499 end, 0,
              k * p + case when k * p >= 5000 then 0 else 499 end,
              jsonb_build_object('firstName', (${FIRST})[1 + g % 12], 'lastName', (${LAST})[1 + (g / 12) % 11],
                                 'email', email, 'phone', '5555550100', 'address', g || ' Main Street',
                                 'city', 'Springfield', 'state', 'IL', 'zipCode', '62701', 'country', 'US'),
              email,
              case when status in ('shipped', 'completed') then '94001' || g else null end,
              case when method <> 'card' then md5(g::text) || md5((g + 7)::text) else null end,
              status = 'failed', case when status = 'failed' then 'Sold out before the payment was confirmed' end,
              at, at
         from src
     )
     insert into order_items (order_id, product_id, title, image, category, size, color, quantity, price_cents)
     select src.id, null, (${ITEM_NAMES})[1 + (src.g + i) % 8] || ' #' || (src.g % 5000),
            'products/bench-' || (src.g % 5000) || '-800.webp',
            (${ALL_CATEGORIES})[1 + (src.g + i * 7) % 18], 'M', 'Black', 1, src.p
       from src cross join lateral generate_series(1, src.k) i`,
    [from, to],
  );
}

/** The admin's audit log (20,000 rows), airdrop claims (50,000) and inbox (10,000 messages). */
export async function seedAdminExtras(target: string | SeedSql, adminId: string): Promise<void> {
  let owned: pg.Client | undefined;
  const client: SeedSql = typeof target === 'string' ? (owned = await seedClient(target)) : target;
  try {
    await client.query('set session_replication_role = replica');
    await client.query(
      `insert into admin_audit_log (action, details, actor_id, created_at)
       select (array['update_order','delete_order','create_product','update_product','update_api_config'])[1 + g % 5],
              jsonb_build_object('orderId', gen_random_uuid(), 'success', true,
                                 'admin', jsonb_build_object('id', $1::text, 'email', 'bench-admin@example.com')),
              $1, now() - (g * 60) * interval '1 second'
         from generate_series(1, 20000) g`,
      [adminId],
    );
    await client.query(
      `insert into airdrop_claims (wallet_address, amount_lamports, created_at)
       select 'Wallet' || lpad(to_hex(g % 5000), 38, 'x'), 1000000 + g * 1000, now() - (g * 600) * interval '1 second'
         from generate_series(1, 50000) g`,
    );
    await client.query(
      `insert into messages (user_id, subject, content, status, priority, created_at, updated_at)
       select $1, 'Question ' || g, 'About my order number ' || g,
              (array['unread','read','archived'])[1 + g % 3], (array['high','normal','low'])[1 + g % 3],
              now() - (g * 300) * interval '1 second', now() - (g * 300) * interval '1 second'
         from generate_series(1, 10000) g`,
      [adminId],
    );
    await client.query('set session_replication_role = origin');
    await client.query('vacuum analyze');
  } finally {
    await owned?.end();
  }
}

export interface SeedRange {
  /** Products g = [from, to] (none when omitted). */
  products?: [number, number];
  /** Orders g = [from, to] and how many customers place them (none when omitted). */
  orders?: { range: [number, number]; customers: number };
}

/**
 * Seeds with triggers off (session_replication_role = replica: a superuser, or the owner with that
 * right, is needed), then rebuilds what the triggers would have kept (the storefront's product
 * counts, and the admin summary and search tables when orders were added) and runs VACUUM ANALYZE: the state a bulk import leaves a shop in.
 * Returns the seconds it took.
 */
export async function seedScale(
  target: string | SeedSql,
  what: SeedRange,
  log: (line: string) => void,
): Promise<number> {
  const started = performance.now();
  // A URL is a PostgreSQL database (a client opened and closed here); else an open connection,
  // such as PGlite's, seeded with the same statements.
  let owned: pg.Client | undefined;
  const client: SeedSql = typeof target === 'string' ? (owned = await seedClient(target)) : target;
  try {
    await client.query('set session_replication_role = replica');
    await client.query('set synchronous_commit = off');
    await client.query(`set maintenance_work_mem = '256MB'`);
    // The trigram (GIN) indexes are dropped for the load and built again after it, as a bulk import
    // does: built whole they take seconds, kept up row by row they took most of the seeding's time
    // (the order search rebuild alone several minutes at a million orders). They end the same.
    const { rows: ginIndexes } = await client.query<{ name: string; definition: string }>(
      `select quote_ident(indexname) as name, indexdef as definition from pg_indexes
        where schemaname = 'public' and indexdef like '% USING gin %'`,
    );
    for (const index of ginIndexes) await client.query(`drop index ${index.name}`);
    if (what.products) await seedProducts(client, what.products[0], what.products[1]);
    if (what.orders) {
      const [first, last] = what.orders.range;
      for (let from = first; from <= last; from += BATCH) {
        const to = Math.min(last, from + BATCH - 1);
        await seedOrders(client, from, to, what.orders.customers);
        log(`  orders ${to.toLocaleString('en-US')} / ${last.toLocaleString('en-US')}`);
      }
    }
    await client.query('set session_replication_role = origin');
    if (what.products) await client.query('select product_counts_rebuild()');
    if (what.orders) {
      await client.query('select admin_stats_rebuild()');
      await client.query('select admin_order_search_rebuild()');
    }
    for (const index of ginIndexes) await client.query(index.definition);
    await client.query('vacuum analyze');
  } finally {
    await owned?.end();
  }
  return (performance.now() - started) / 1000;
}

// The shop on it ----------------------------------------------------------------------------------

export interface BenchShop {
  config: Config;
  deps: AppDeps;
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
}

/**
 * The shop in process on `databaseUrl` (production mode, demo seed off, quiet), its app built with
 * `appOptions` (e.g. a copied build's webDir and ssrEntry).
 */
export async function openBenchShop(
  databaseUrl: string,
  options: { env?: Record<string, string>; app?: CreateAppOptions; poolSize?: number } = {},
): Promise<BenchShop> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    // Measured as before: crypto on the local demo ledger (off by default beside DATABASE_URL).
    LOCAL_LEDGER: 'demo',
    ...options.env,
  });
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: '',
    logger,
    poolSize: options.poolSize ?? 10,
  });
  const deps = await createDeps(config, logger, { database });
  const app = createApp(deps, options.app);
  return {
    config,
    deps,
    app,
    async close() {
      await closeDeps(deps);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs an admin in through the auth API; returns the session cookie header. */
export async function adminSession(
  shop: BenchShop,
  admin = { email: 'bench-admin@example.com', password: 'bench-admin-password' },
): Promise<{ cookie: string; userId: string }> {
  const user = await shop.deps.auth.createUser({ ...admin, role: 'admin' });
  const signIn = await shop.app.request('/api/auth/sign-in/email', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shop.config.publicUrl },
    body: JSON.stringify(admin),
  });
  if (signIn.status !== 200) throw new Error(`admin sign-in failed: ${signIn.status}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, userId: user.id };
}

// Timing -----------------------------------------------------------------------------------------

export interface Timing {
  median: number;
  p95: number;
  min: number;
  max: number;
}

/** Median (mean of the middle two for an even count), nearest-rank p95, min and max, to 0.1 ms. */
export function summarise(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { median: round(median), p95: round(at(0.95)), min: round(sorted[0]!), max: round(sorted.at(-1)!) };
}
