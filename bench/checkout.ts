/**
 * Checkout under load (issue 15, benchmark 2): checkout creations per second on PostgreSQL with 50
 * concurrent shoppers; target p99 under 50 ms and no errors.
 *
 * The shop runs as its own process (bench/support/shop-process.ts) on a scratch PostgreSQL
 * database, with card payments pointed at the Stripe stand-in (tests/fakes/stripe-server.ts, run
 * by this process: Stripe is the one outside party) and crypto on the local ledger. 200 products
 * with ample stock. Each of the 50 shoppers has its own keep-alive connection from its own
 * loopback address (127.0.1.x), its own cookie jar and its own cart id, and does what the
 * four-step checkout does, over and over: POST /api/checkout (items, shipping info, payment method,
 * cart id, as src/web/features/checkout sends it), then POST /api/payments/:reference/cancel (the
 * shopper leaves the payment page; the stock comes back). Only the creation is the figure; the
 * cancel is reported for context.
 *
 * Phases, each a warm-up then a timed window: GET /api/health (the baseline: the same server, the
 * same 50 connections, a request that only pings the database), card checkouts, SOL checkouts.
 * At the end every product's stock must be back where it started.
 *
 * Raised limits (the bench's shoppers are 50 machines checking out back to back, not people):
 * CHECKOUT_RATE_LIMIT (20 per client address per 10 minutes) to 100000, since each shopper makes
 * hundreds of checkouts a minute. The hold limits (open checkouts and held units per client) are
 * left at their defaults: each shopper cancels before the next checkout, so it holds one at most.
 *
 *   npx tsx bench/checkout.ts [--shoppers=50] [--seconds=15] [--warmup=3]
 */
import { openDatabase } from '../src/server/db/client';
import { createLogger } from '../src/server/lib/logger';
import { createProduct } from '../tests/factories/product';
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
const SHOPPERS = arg('shoppers', 50);
const SECONDS = arg('seconds', 15);
const WARMUP = arg('warmup', 3);
const PROFILE_DIR = process.argv.find((a) => a.startsWith('--cpu-prof='))?.split('=')[1];
/** --pool=N sets the server's DATABASE_POOL_SIZE (default: the shop's default). */
const POOL = process.argv.find((a) => a.startsWith('--pool='))?.split('=')[1];
const PRODUCTS = 200;
const STOCK = 1_000_000;
const TARGET_P99_MS = 50;

const SHIPPING = {
  firstName: 'Bench',
  lastName: 'Shopper',
  email: 'bench@example.com',
  phone: '5551234567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

interface PhaseResult {
  label: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  samples: string[];
  cancelP99: number | null;
}

async function runPhase(
  label: string,
  shoppers: Shopper[],
  step: (shopper: Shopper, index: number) => Promise<{ main: Answer; ok: boolean; cancel?: Answer }>,
): Promise<PhaseResult> {
  const warmEnd = performance.now() + WARMUP * 1000;
  const end = warmEnd + SECONDS * 1000;
  const latencies: number[] = [];
  const cancels: number[] = [];
  const samples: string[] = [];
  let errors = 0;
  await Promise.all(
    shoppers.map(async (shopper, i) => {
      while (performance.now() < end) {
        const started = performance.now();
        const { main, ok, cancel } = await step(shopper, i);
        if (started < warmEnd) continue;
        latencies.push(main.ms);
        if (cancel) cancels.push(cancel.ms);
        if (!ok) {
          errors++;
          if (samples.length < 5) samples.push(`${main.status} ${main.body.slice(0, 200)}`);
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  cancels.sort((a, b) => a - b);
  return {
    label,
    count: latencies.length,
    perSecond: latencies.length / SECONDS,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
    samples,
    cancelP99: cancels.length ? quantile(cancels, 0.99) : null,
  };
}

async function main() {
  const database = await createScratchDatabase();
  const stripe = await startFakeStripe();
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
    // Each shopper opens the payment step first (as the checkout drawer does): its cookies, if any.
    for (const s of shoppers) {
      const config = await s.get('/api/checkout/config');
      if (config.status !== 200) throw new Error(`checkout config ${config.status} ${config.body}`);
    }

    let n = 0;
    const checkoutStep = (paymentMethod: 'card' | 'sol') => async (shopper: Shopper, i: number) => {
      const lines = 1 + (n++ % 3);
      const items = Array.from({ length: lines }, (_, k) => ({
        productId: productIds[(i * 7 + n * 13 + k * 61) % PRODUCTS]!,
        size: 'M' as const,
        color: 'Black',
        quantity: 1,
      }));
      const main = await shopper.post('/api/checkout', {
        items,
        shippingInfo: SHIPPING,
        paymentMethod,
        cartId: cartIds[i],
      });
      if (main.status !== 201) return { main, ok: false };
      const { reference } = JSON.parse(main.body) as { reference: string };
      const cancel = await shopper.post(`/api/payments/${reference}/cancel`);
      const status = cancel.status === 200 ? (JSON.parse(cancel.body) as { status: string }).status : '';
      const ok = status === 'expired';
      return { main: ok ? main : { ...cancel, ms: main.ms }, ok, cancel };
    };

    const health = await runPhase('GET /api/health', shoppers, async (shopper) => {
      const main = await shopper.get('/api/health');
      return { main, ok: main.status === 200 };
    });
    const card = await runPhase('card checkout', shoppers, checkoutStep('card'));
    const sol = await runPhase('SOL checkout', shoppers, checkoutStep('sol'));
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

    for (const r of [health, card, sol]) {
      console.log(
        `${r.label}: ${r.count} in ${SECONDS} s (${r.perSecond.toFixed(0)}/s), p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}` +
          (r.cancelP99 === null ? '' : `, cancel p99 ${r.cancelP99.toFixed(1)} ms`),
      );
      for (const s of r.samples) console.log(`  e.g. ${s}`);
    }
    if (stockLost !== 0) console.log(`stock not given back: ${stockLost} units`);
    if (serverErrors.length) console.log(`server error log:\n${serverErrors.slice(0, 10).join('\n')}`);

    const figures: Figure[] = [];
    for (const [key, r] of [
      ['card', card],
      ['SOL', sol],
    ] as const) {
      figures.push(
        figure(`checkout (${key}, ${SHOPPERS} shoppers): creations/s`, r.perSecond, '/s', {
          baseline: health.perSecond,
        }),
        figure(`checkout (${key}, ${SHOPPERS} shoppers): p50 latency`, r.p50, 'ms', { baseline: health.p50 }),
        figure(`checkout (${key}, ${SHOPPERS} shoppers): p99 latency`, r.p99, 'ms', {
          baseline: health.p99,
          target: ['<', TARGET_P99_MS],
        }),
        figure(`checkout (${key}, ${SHOPPERS} shoppers): errors`, r.errors, '', { target: ['<=', 0] }),
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
