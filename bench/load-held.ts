/**
 * Load held (issue 15, benchmark 7): 200 browsing clients and 20 checking out, for 60 s, against
 * the shop as its own server process (bench/support/shop-process.ts) on a scratch PostgreSQL
 * database with the demo catalogue (SEED_DEMO, as a newcomer's `npm start`), its stock raised so
 * the checking-out clients never run out. Targets: no errors (every answer 2xx, no transport
 * error, no error in the server's log), and the server's memory (RSS) at the end, after a short
 * settle, within 10 % of what it was after the warm-up. Each route's p99 is reported for reading;
 * the issue sets no target for them.
 *
 * Every client has its own loopback address (127.0.1.x), keep-alive connection and cookie jar.
 * Browsing clients hold a live-event stream open (GET /api/events?topics=catalog, as the storefront
 * does) and, with a think time of 250-750 ms between requests (far busier than a person), do what
 * the storefront does: the landing page, a filtered listing page, a product's page (server-rendered
 * HTML), the product list API with filters and its next page, a product's details, the market
 * ticker's two APIs. Checking-out clients fill a cart from the product API, read the checkout
 * config, create a checkout (card through the Stripe stand-in, or SOL on the local ledger), read
 * its status and cancel it; every fifth SOL checkout is abandoned instead and left to expire
 * (RESERVATION_MINUTES=1, the reservation sweeper every 5 s). At the end each product's stock plus
 * what open checkouts still hold must equal its stock at the start.
 *
 * Raised limits: CHECKOUT_RATE_LIMIT (20 per address per 10 minutes) to 100000, since a client
 * here checks out every second or two; the hold limits stay at their defaults.
 *
 *   npx tsx bench/load-held.ts [--browsers=200] [--buyers=20] [--seconds=60] [--warmup=10]
 */
import http from 'node:http';
import { openDatabase } from '../src/server/db/client';
import { createLogger } from '../src/server/lib/logger';
import { startFakeStripe } from '../tests/fakes/stripe-server';
import { figure, quantile, reportFigures, type Figure } from './support/figures';
import { Shopper, shopperAddress, type Answer } from './support/http-client';
import { createScratchDatabase, startShopProcess } from './support/shop-process';

const arg = (name: string, fallback: number) => {
  const v = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
};
const BROWSERS = arg('browsers', 200);
const BUYERS = arg('buyers', 20);
const SECONDS = arg('seconds', 60);
const WARMUP = arg('warmup', 10);
const SETTLE_MS = 5_000;
const STOCK = 100_000;
const MEMORY_GROWTH_TARGET = 10;

const SHIPPING = {
  firstName: 'Load',
  lastName: 'Shopper',
  email: 'load@example.com',
  phone: '5551234567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};
const FILTERS = [
  '',
  'gender=womens',
  'gender=mens',
  'gender=womens&category=womens-leggings',
  'gender=mens&category=mens-tops',
  'size=M',
  'sort=price-asc',
  'sort=price-desc',
  'gender=womens&size=S&sort=newest',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const think = () => sleep(250 + Math.random() * 500);
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

class Recorder {
  measuring = false;
  readonly byRoute = new Map<string, number[]>();
  readonly failures = new Map<string, number>();
  readonly samples: string[] = [];
  total = 0;

  async time(route: string, request: () => Promise<Answer>, expected = 200): Promise<Answer | null> {
    let answer: Answer | null = null;
    let problem: string | null = null;
    try {
      answer = await request();
      if (answer.status !== expected) problem = `${answer.status} ${answer.body.slice(0, 160)}`;
    } catch (err) {
      problem = `transport error: ${(err as Error).message}`;
    }
    if (!this.measuring) return problem ? null : answer;
    this.total++;
    if (answer && !problem) {
      const list = this.byRoute.get(route) ?? [];
      list.push(answer.ms);
      this.byRoute.set(route, list);
      return answer;
    }
    this.failures.set(route, (this.failures.get(route) ?? 0) + 1);
    if (this.samples.length < 10) this.samples.push(`${route}: ${problem}`);
    return null;
  }
}

interface ProductCard {
  id: string;
  sizes: string[];
  colors: string[];
}

async function main() {
  const database = await createScratchDatabase();
  const stripe = await startFakeStripe();
  let shop: Awaited<ReturnType<typeof startShopProcess>> | undefined;
  const sse: http.ClientRequest[] = [];
  try {
    shop = await startShopProcess({
      DATABASE_URL: database.url,
      SEED_DEMO: 'true',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      CHECKOUT_RATE_LIMIT: '100000',
      RESERVATION_MINUTES: '1',
      SWEEP_INTERVAL_SECONDS: '5',
    });
    const url = shop.url;
    stripe.setWebhook(`${url}/api/webhooks/stripe`);

    const db = await openDatabase({
      databaseUrl: database.url,
      pgliteDir: '',
      logger: createLogger('silent'),
    });
    let products: ProductCard[];
    try {
      await db.db.updateTable('products').set({ quantity: STOCK }).execute();
      products = (await db.db.selectFrom('products').select(['id', 'sizes', 'colors']).execute()).map(
        (p) => ({
          id: p.id,
          sizes: p.sizes,
          colors: p.colors,
        }),
      );
    } finally {
      await db.close();
    }
    if (products.length === 0) throw new Error('the demo catalogue is empty');
    console.log(`shop at ${url} (pid ${shop.pid}), ${products.length} demo products`);

    const rec = new Recorder();
    let stopping = false;
    let sseEvents = 0;
    let sseFailures = 0;

    const browser = async (i: number) => {
      const s = new Shopper(url, shopperAddress(i), url);
      // The storefront's live-event stream, on a connection of its own, held for the whole run.
      const stream = http.get(
        `${url}/api/events?topics=catalog`,
        { localAddress: s.address, headers: { accept: 'text/event-stream' } },
        (res) => {
          if (res.statusCode !== 200) sseFailures++;
          res.on('data', (chunk: Buffer) => {
            sseEvents += chunk.toString('utf8').split('\nevent:').length - 1;
          });
          res.on('error', () => undefined);
          res.on('end', () => {
            if (!stopping) sseFailures++;
          });
        },
      );
      stream.on('error', () => {
        if (!stopping) sseFailures++;
      });
      sse.push(stream);
      await sleep(Math.random() * 1000);
      while (!stopping) {
        const filter = pick(FILTERS);
        switch (Math.floor(Math.random() * 8)) {
          case 0:
            await rec.time('page /', () => s.get('/', { accept: 'text/html' }));
            break;
          case 1:
            await rec.time('page /?filters', () =>
              s.get(`/?${filter || 'gender=womens'}`, { accept: 'text/html' }),
            );
            break;
          case 2:
            await rec.time('page /products/:id', () =>
              s.get(`/products/${pick(products).id}`, { accept: 'text/html' }),
            );
            break;
          case 3:
          case 4: {
            const first = await rec.time('GET /api/products', () =>
              s.get(`/api/products?${filter}${filter ? '&' : ''}limit=12`),
            );
            const next = first ? (JSON.parse(first.body) as { nextCursor: string | null }).nextCursor : null;
            if (next) {
              await think();
              await rec.time('GET /api/products (next page)', () =>
                s.get(
                  `/api/products?${filter}${filter ? '&' : ''}limit=12&cursor=${encodeURIComponent(next)}`,
                ),
              );
            }
            break;
          }
          case 5:
            await rec.time('GET /api/products/:id', () => s.get(`/api/products/${pick(products).id}`));
            break;
          case 6:
            await rec.time('GET /api/market/token-stats', () => s.get('/api/market/token-stats'));
            break;
          default:
            await rec.time('GET /api/market/sol-price', () => s.get('/api/market/sol-price'));
        }
        await think();
      }
      s.close();
    };

    let abandoned = 0;
    const buyer = async (i: number) => {
      const s = new Shopper(url, shopperAddress(BROWSERS + i), url);
      const cartId = crypto.randomUUID();
      let n = 0;
      await sleep(Math.random() * 1000);
      while (!stopping) {
        n++;
        const lines = [];
        for (let k = 0; k < 1 + (n % 3); k++) {
          const p = pick(products);
          if (lines.some((l) => l.productId === p.id)) continue;
          await rec.time('GET /api/products/:id', () => s.get(`/api/products/${p.id}`));
          lines.push({ productId: p.id, size: p.sizes[0] ?? null, color: p.colors[0] ?? null, quantity: 1 });
          await think();
        }
        await rec.time('GET /api/checkout/config', () => s.get('/api/checkout/config'));
        const method = n % 2 === 0 ? 'card' : 'sol';
        const created = await rec.time(
          `POST /api/checkout (${method})`,
          () =>
            s.post('/api/checkout', { items: lines, shippingInfo: SHIPPING, paymentMethod: method, cartId }),
          201,
        );
        await think();
        if (!created) continue;
        const { reference } = JSON.parse(created.body) as { reference: string };
        await rec.time('GET /api/payments/:ref/status', () => s.get(`/api/payments/${reference}/status`));
        await think();
        if (method === 'sol' && n % 5 === 1) {
          abandoned++; // left open: the next checkout of this cart, or the sweeper, ends it
          continue;
        }
        await rec.time('POST /api/payments/:ref/cancel', () => s.post(`/api/payments/${reference}/cancel`));
        await think();
      }
      s.close();
    };

    const clients = [
      ...Array.from({ length: BROWSERS }, (_, i) => browser(i)),
      ...Array.from({ length: BUYERS }, (_, i) => buyer(i)),
    ];
    await sleep(WARMUP * 1000);
    const rssBefore = shop.rssBytes();
    rec.measuring = true;
    const started = performance.now();
    await sleep(SECONDS * 1000);
    rec.measuring = false;
    const elapsed = (performance.now() - started) / 1000;
    stopping = true;
    await Promise.all(clients);
    for (const r of sse) r.destroy();
    await sleep(SETTLE_MS);
    const rssAfter = shop.rssBytes();

    // Stock: what each product has now plus what open checkouts still hold is what it started with.
    const check = await openDatabase({
      databaseUrl: database.url,
      pgliteDir: '',
      logger: createLogger('silent'),
    });
    let stockMismatch = 0;
    let expiredBySweeper = 0;
    try {
      const rows = await check.db
        .selectFrom('products as p')
        .leftJoin('stock_reservations as r', (j) =>
          j
            .onRef('r.product_id', '=', 'p.id')
            .on('r.released_at', 'is', null)
            .on('r.consumed_at', 'is', null),
        )
        .select(['p.id', 'p.quantity'])
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('r.quantity'), eb.lit(0)).as('held'))
        .groupBy(['p.id', 'p.quantity'])
        .execute();
      stockMismatch = rows.filter((r) => r.quantity + Number(r.held) !== STOCK).length;
      const swept = await check.db
        .selectFrom('payments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'expired')
        .executeTakeFirst();
      expiredBySweeper = Number(swept?.n ?? 0);
    } finally {
      await check.close();
    }
    const serverErrors = shop.errorLogLines();

    const errors = [...rec.failures.values()].reduce((a, b) => a + b, 0);
    console.log(
      `${rec.total} requests in ${elapsed.toFixed(1)} s (${(rec.total / elapsed).toFixed(0)}/s), ${errors} failed; ` +
        `${sseEvents} live events received; ${abandoned} checkouts abandoned, ${expiredBySweeper} expired by the sweeper`,
    );
    for (const s of rec.samples) console.log(`  e.g. ${s}`);
    if (serverErrors.length) console.log(`server error log:\n${serverErrors.slice(0, 10).join('\n')}`);

    const growth = ((rssAfter - rssBefore) / rssBefore) * 100;
    const figures: Figure[] = [
      figure(`load held (${BROWSERS} browsing + ${BUYERS} buying, ${SECONDS} s): requests`, rec.total, ''),
      figure('load held: failed requests (non-2xx or transport error)', errors, '', { target: ['<=', 0] }),
      figure('load held: live-event streams dropped or refused', sseFailures, '', { target: ['<=', 0] }),
      figure('load held: server error log lines', serverErrors.length, '', { target: ['<=', 0] }),
      figure('load held: products whose stock does not add up', stockMismatch, '', { target: ['<=', 0] }),
      figure('load held: server RSS after warm-up', rssBefore / 2 ** 20, 'MiB'),
      figure('load held: server RSS at the end (after 5 s settle)', rssAfter / 2 ** 20, 'MiB', {
        baseline: rssBefore / 2 ** 20,
      }),
      figure('load held: server RSS growth', growth, '%', { target: ['<', MEMORY_GROWTH_TARGET] }),
    ];
    for (const [route, list] of [...rec.byRoute].sort(([a], [b]) => a.localeCompare(b))) {
      list.sort((a, b) => a - b);
      console.log(`  ${route}: n=${list.length}, p50 ${quantile(list, 0.5).toFixed(1)} ms`);
      figures.push(figure(`load held: ${route} p99`, quantile(list, 0.99), 'ms'));
    }
    reportFigures(figures);
    if (figures.some((f) => f.met === false)) process.exitCode = 1;
  } finally {
    for (const r of sse) r.destroy();
    await shop?.stop();
    await stripe.close();
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
