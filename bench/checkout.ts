/**
 * Checkout under load (issue 15, benchmark 2): checkout creations on PostgreSQL with 50 concurrent
 * shoppers; target p99 under 50 ms and no errors.
 *
 * The shop runs as its own process (bench/support/shop-process.ts) on a scratch PostgreSQL
 * database, with card payments pointed at the Stripe stand-in (tests/fakes/stripe-server.ts, run
 * in a process of its own, bench/support/stripe-process.ts: Stripe is the one outside party, and
 * its answers must not wait on this process's shoppers) and crypto on the local ledger. 200 products
 * with ample stock. Each of the 50 shoppers has its own keep-alive connection from its own
 * loopback address (127.0.1.x), its own cookie jar and its own cart id.
 *
 * Pacing: a shopper is a person. Each one does what the checkout's last steps do, over and over:
 * opens the payment step (GET /api/checkout/config), clicks Pay (POST /api/checkout: items,
 * shipping info, payment method, cart id, as src/web/features/checkout sends it), leaves the
 * payment page (POST /api/payments/:reference/cancel; the stock comes back), and between two
 * actions waits for the answer, then thinks for a random THINK_MIN_MS..THINK_MAX_MS (0.5-1.5 s,
 * uniform). That is faster than anyone fills in a payment step (a person takes tens of seconds),
 * so it is a busy upper bound of what 50 people at the payment step produce: about one checkout
 * per shopper every 3 s, some 15-20 creations/s. A closed loop without think time would measure
 * something else: 50 requests always in flight, where latency is 50 / throughput by Little's law
 * and p99 < 50 ms would need more than 1,000 checkouts/s on two cores (a saturation test).
 * The figures: creations/s at that load, p50 and p99 of the creation (target < 50 ms), errors
 * (target 0); the config and cancel p99 for context.
 *
 * Phases, each a warm-up then a timed window, paced as above: GET /api/health (the baseline: the
 * same server, the same 50 shoppers and pacing, a request that only pings the database), card
 * checkouts, SOL checkouts. Then a saturation phase for context (no target): the 50 shoppers
 * create and cancel SOL checkouts back to back without thinking, which gives the most creations/s
 * the shop manages on this machine and the latency when every shopper waits on the others.
 * At the end every product's stock must be back where it started and the server's log must hold
 * no error.
 *
 * Raised limit: CHECKOUT_RATE_LIMIT (20 checkouts per client address per 10 minutes) to 100000,
 * since each bench shopper checks out every few seconds for minutes, and hundreds of times in the
 * saturation phase. The hold limits (open checkouts and held units per client) are left at their
 * defaults: each shopper cancels before the next checkout, so it holds one at most.
 *
 *   npx tsx bench/checkout.ts [--shoppers=50] [--seconds=30] [--warmup=5] [--saturation=10]
 *     [--pool=N] [--cpu-prof=DIR]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../src/server/db/client';
import { createLogger } from '../src/server/lib/logger';
import { createProduct } from '../tests/factories/product';
import { figure, quantile, reportFigures, type Figure } from './support/figures';
import { Shopper, shopperAddress, type Answer, BENCH_SHIPPING, sleep } from './support/http-client';
import { createScratchDatabase, startShopProcess } from './support/shop-process';
import { startStripeProcess } from './support/stripe-process';

const arg = (name: string, fallback: number) => {
  const v = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number >= 0`);
  return n;
};
const SHOPPERS = arg('shoppers', 50);
const SECONDS = arg('seconds', 30);
const WARMUP = arg('warmup', 5);
/** Seconds of the closed-loop saturation phase (0: skipped). */
const SATURATION_SECONDS = arg('saturation', 10);
const PROFILE_DIR = process.argv.find((a) => a.startsWith('--cpu-prof='))?.split('=')[1];
/** --pool=N sets the server's DATABASE_POOL_SIZE (default: the shop's default). */
const POOL = process.argv.find((a) => a.startsWith('--pool='))?.split('=')[1];
const PRODUCTS = 200;
const STOCK = 1_000_000;
const TARGET_P99_MS = 50;
/** A shopper's think time between an answer and its next action: uniform in this range. */
const THINK_MIN_MS = 500;
const THINK_MAX_MS = 1_500;

const think = () => sleep(THINK_MIN_MS + Math.random() * (THINK_MAX_MS - THINK_MIN_MS));

interface Stats {
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
}

interface PhaseResult {
  label: string;
  seconds: number;
  /** The phase's main request (the figure), then the others for context. */
  main: Stats;
  others: Map<string, Stats>;
  errors: number;
  samples: string[];
  /** p99 of the bench process's own event-loop delay in the timed window, ms. */
  clientLagP99: number;
}

/**
 * What one shopper's action did: `ok` when the answer is the one a working shop gives. `record`
 * is called by the phase for every request, with whether it started inside the timed window.
 */
type Timed = (
  kind: string,
  request: () => Promise<Answer>,
  isOk: (a: Answer) => boolean,
) => Promise<Answer | null>;

/**
 * Runs `cycle` for every shopper until the phase ends: a warm-up, then `seconds` timed. Requests
 * that start inside the timed window count (a cycle running over its end finishes uncounted).
 * Shoppers start spread over one think time so they do not move in step.
 */
async function runPhase(
  label: string,
  mainKind: string,
  seconds: number,
  shoppers: Shopper[],
  cycle: (shopper: Shopper, index: number, timed: Timed, isOver: () => boolean) => Promise<void>,
  paced: boolean,
): Promise<PhaseResult> {
  const warmEnd = performance.now() + WARMUP * 1000;
  const end = warmEnd + seconds * 1000;
  const latencies = new Map<string, number[]>();
  const samples: string[] = [];
  let errors = 0;
  const timed: Timed = async (kind, request, isOk) => {
    const started = performance.now();
    let answer: Answer | null = null;
    let problem: string | null = null;
    try {
      answer = await request();
      if (!isOk(answer)) problem = `${answer.status} ${answer.body.slice(0, 200)}`;
    } catch (err) {
      problem = `transport error: ${(err as Error).message}`;
    }
    if (started >= warmEnd && started < end) {
      if (problem === null && answer) {
        const list = latencies.get(kind) ?? [];
        list.push(answer.ms);
        latencies.set(kind, list);
      } else {
        errors++;
        if (samples.length < 5) samples.push(`${kind}: ${problem}`);
      }
    }
    return problem === null ? answer : null;
  };
  const isOver = () => performance.now() >= end;
  // How late this process's own timers ran (its shoppers' clock): a figure for reading the others.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  setTimeout(() => lag.enable(), WARMUP * 1000).unref();
  await Promise.all(
    shoppers.map(async (shopper, i) => {
      if (paced) await sleep(Math.random() * THINK_MAX_MS);
      while (!isOver()) await cycle(shopper, i, timed, isOver);
    }),
  );
  const stats = (list: number[]): Stats => {
    list.sort((a, b) => a - b);
    return {
      count: list.length,
      perSecond: list.length / seconds,
      p50: quantile(list, 0.5),
      p99: quantile(list, 0.99),
    };
  };
  lag.disable();
  const others = new Map<string, Stats>();
  for (const [kind, list] of latencies) if (kind !== mainKind) others.set(kind, stats(list));
  return {
    label,
    seconds,
    main: stats(latencies.get(mainKind) ?? []),
    others,
    errors,
    samples,
    clientLagP99: lag.count > 0 ? lag.percentile(99) / 1e6 : 0,
  };
}

async function main() {
  const database = await createScratchDatabase();
  const stripe = await startStripeProcess();
  let shop: Awaited<ReturnType<typeof startShopProcess>> | undefined;
  try {
    shop = await startShopProcess(
      {
        DATABASE_URL: database.url,
        SEED_DEMO: 'false',
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
        CHECKOUT_RATE_LIMIT: '100000',
        ...(POOL ? { DATABASE_POOL_SIZE: POOL } : {}),
      },
      // --cpu-prof: a CPU profile of the server, for finding where a checkout's time goes.
      PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] } : {},
    );
    stripe.setWebhook(`${shop.url}/api/webhooks/stripe`);

    // Products, inserted the way the admin service and the demo seed do (the server migrated the database).
    const db = await openDatabase({
      databaseUrl: database.url,
      pgliteDir: '',
      logger: createLogger('silent'),
    });
    const productIds: string[] = [];
    try {
      for (let i = 0; i < PRODUCTS; i++) {
        const p = await createProduct(db.db, {
          title: `Bench Legging ${i}`,
          priceCents: 2_000 + (i % 40) * 100,
          quantity: STOCK,
          sizes: ['S', 'M', 'L'],
          colors: ['Black'],
        });
        productIds.push(p.id);
      }
    } finally {
      await db.close();
    }

    const shoppers = Array.from(
      { length: SHOPPERS },
      (_, i) => new Shopper(shop!.url, shopperAddress(i), shop!.url),
    );
    const cartIds = shoppers.map(() => crypto.randomUUID());

    let n = 0;
    const itemsFor = (i: number) => {
      const lines = 1 + (n++ % 3);
      return Array.from({ length: lines }, (_, k) => ({
        productId: productIds[(i * 7 + n * 13 + k * 61) % PRODUCTS]!,
        size: 'M' as const,
        color: 'Black',
        quantity: 1,
      }));
    };
    const is200 = (a: Answer) => a.status === 200;
    const cancelled = (a: Answer) =>
      a.status === 200 && (JSON.parse(a.body) as { status: string }).status === 'expired';
    /** One pass through the payment step: config, Pay, leave (with think time when paced). */
    const checkoutCycle =
      (paymentMethod: 'card' | 'sol', paced: boolean) =>
      async (shopper: Shopper, i: number, timed: Timed, isOver: () => boolean) => {
        if (paced) {
          await timed('GET /api/checkout/config', () => shopper.get('/api/checkout/config'), is200);
          await think();
          if (isOver()) return;
        }
        const created = await timed(
          'POST /api/checkout',
          () =>
            shopper.post('/api/checkout', {
              items: itemsFor(i),
              shippingInfo: BENCH_SHIPPING,
              paymentMethod,
              cartId: cartIds[i],
            }),
          (a) => a.status === 201,
        );
        if (!created) return;
        if (paced) await think();
        const { reference } = JSON.parse(created.body) as { reference: string };
        await timed(
          'POST /api/payments/:ref/cancel',
          () => shopper.post(`/api/payments/${reference}/cancel`),
          cancelled,
        );
        if (paced) await think();
      };

    const health = await runPhase(
      'GET /api/health',
      'GET /api/health',
      SECONDS,
      shoppers,
      async (shopper, _i, timed) => {
        await timed('GET /api/health', () => shopper.get('/api/health'), is200);
        await think();
      },
      true,
    );
    const card = await runPhase(
      'card checkout',
      'POST /api/checkout',
      SECONDS,
      shoppers,
      checkoutCycle('card', true),
      true,
    );
    const sol = await runPhase(
      'SOL checkout',
      'POST /api/checkout',
      SECONDS,
      shoppers,
      checkoutCycle('sol', true),
      true,
    );
    const saturation =
      SATURATION_SECONDS > 0
        ? await runPhase(
            'SOL checkout, closed loop (saturation)',
            'POST /api/checkout',
            SATURATION_SECONDS,
            shoppers,
            checkoutCycle('sol', false),
            false,
          )
        : null;
    for (const s of shoppers) s.close();

    // Every unit held was given back.
    const check = await openDatabase({
      databaseUrl: database.url,
      pgliteDir: '',
      logger: createLogger('silent'),
    });
    let stockLost = 0;
    try {
      const rows = await check.db.selectFrom('products').select(['quantity']).execute();
      stockLost = rows.reduce((sum, r) => sum + (STOCK - r.quantity), 0);
    } finally {
      await check.close();
    }
    const serverErrors = shop.errorLogLines();

    const line = (label: string, r: Stats) =>
      `${label}: ${r.count} (${r.perSecond.toFixed(1)}/s), p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`;
    for (const r of [health, card, sol, saturation]) {
      if (!r) continue;
      console.log(
        `${line(`${r.label}, ${r.seconds} s`, r.main)}, errors ${r.errors}, bench client lag p99 ${r.clientLagP99.toFixed(1)} ms`,
      );
      for (const [kind, st] of r.others) console.log(`  ${line(kind, st)}`);
      for (const s of r.samples) console.log(`  e.g. ${s}`);
    }
    if (stockLost !== 0) console.log(`stock not given back: ${stockLost} units`);
    if (serverErrors.length) console.log(`server error log:\n${serverErrors.slice(0, 10).join('\n')}`);

    const group = `checkout (${SHOPPERS} shoppers, think ${THINK_MIN_MS / 1000}-${THINK_MAX_MS / 1000} s)`;
    const figures: Figure[] = [];
    for (const [key, r] of [
      ['card', card],
      ['SOL', sol],
    ] as const) {
      figures.push(
        figure(`${group}, ${key}: creations/s`, r.main.perSecond, '/s'),
        figure(`${group}, ${key}: p50 latency`, r.main.p50, 'ms', { baseline: health.main.p50 }),
        figure(`${group}, ${key}: p99 latency`, r.main.p99, 'ms', {
          baseline: health.main.p99,
          target: ['<', TARGET_P99_MS],
        }),
        figure(`${group}, ${key}: errors`, r.errors, '', { target: ['<=', 0] }),
      );
      figures.push(figure(`${group}, ${key}: bench client event-loop lag p99`, r.clientLagP99, 'ms'));
      const cancel = r.others.get('POST /api/payments/:ref/cancel');
      if (cancel) figures.push(figure(`${group}, ${key}: cancel p99`, cancel.p99, 'ms'));
    }
    const config = sol.others.get('GET /api/checkout/config');
    if (config)
      figures.push(figure(`${group}: checkout config p99`, config.p99, 'ms', { baseline: health.main.p99 }));
    if (saturation) {
      figures.push(
        figure(
          `checkout saturation (${SHOPPERS} shoppers, no think time), SOL: creations/s`,
          saturation.main.perSecond,
          '/s',
        ),
        figure(
          `checkout saturation (${SHOPPERS} shoppers, no think time), SOL: p99 latency`,
          saturation.main.p99,
          'ms',
        ),
        figure(
          `checkout saturation (${SHOPPERS} shoppers, no think time), SOL: errors`,
          saturation.errors,
          '',
        ),
      );
    }
    figures.push(
      figure('checkout: stock not given back after cancel', stockLost, 'units', { target: ['<=', 0] }),
      figure('checkout: server error log lines', serverErrors.length, '', { target: ['<=', 0] }),
    );
    reportFigures(figures);
    if (figures.some((f) => f.met === false)) process.exitCode = 1;
  } finally {
    await shop?.stop();
    await stripe.close();
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
