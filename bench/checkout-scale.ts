/**
 * Checkout at scale: 200 shoppers at once on two shop instances sharing one PostgreSQL database.
 * Targets: checkout creation p99 under 100 ms for card and SOL, no error, no one-off item sold
 * twice (exactly one of the shoppers racing for it wins), every held unit back in stock once its
 * hold expires. Context: the saturation point, the offered checkouts/s at which the creation's p99
 * passes 1 s, on two instances against one instance in the same run.
 *
 * The set-up is bench/scale-out.ts's with bench/checkout.ts's load. Two processes of the built app
 * (bench/support/shop-process.ts, NODE_ENV=production) on one scratch database: A hosts the local
 * ledger (LOCAL_LEDGER=demo), B sets SOLANA_RPC_URL to A's /local-chain with A's mint and wallet,
 * and reads the SOL price from the price-feed stand-in (tests/fakes/market-feeds.ts; A's ledger has
 * fixed local prices), as the deploy test's instances do. Card payments go to the Stripe stand-in
 * in a process of its own (bench/support/stripe-process.ts). Shopper i talks to instance i mod 2
 * (a load balancer's round robin), over its own keep-alive connection from its own loopback
 * address, with its own cookies and cart.
 *
 * Phases:
 * 1. Paced (bench/checkout.ts's shopper, its think time): GET /api/health as the baseline, then
 *    card checkouts, then SOL checkouts. Each shopper opens the payment step (GET
 *    /api/checkout/config), thinks 0.5-1.5 s, clicks Pay (POST /api/checkout), thinks, leaves the
 *    payment page (POST /api/payments/:reference/cancel: the stock comes back), thinks.
 * 2. One-off items, raced inside each paced window: ONE_OFF products of quantity 1, one after the
 *    other spread over the window, each raced by RACERS further shoppers (own addresses, both
 *    instances) who press Pay at the same moment. Exactly one must get 201; the others 409
 *    OUT_OF_STOCK. The winners keep their holds (an anonymous card checkout taking a product's last
 *    unit holds it for RESERVATION_MINUTES, decision 016, as a SOL one does). The database is
 *    checked too: a one-off item never has more than one live reservation.
 * 3. Abandoned checkouts: after the SOL window each shopper starts one more SOL checkout (a new
 *    cart) and walks away. With the winners' holds these must come back by themselves:
 *    RESERVATION_MINUTES=1 (the shortest the server allows) and SWEEP_INTERVAL_SECONDS=5, so the
 *    reservation sweeper returns them a minute later, while the ramps run.
 * 4. Saturation ramp (open loop, SOL): checkouts arrive at a fixed offered rate, evenly spaced,
 *    handed to an idle shopper of the next instance in turn (or queued for one: the 200 shoppers
 *    are the connection pool); each is created and then cancelled. A creation's latency runs from
 *    its scheduled arrival, so the time it queued for a shopper counts (no coordinated omission).
 *    The rate rises step by step (RAMP rates, RAMP_SECONDS each, in-flight work drained between
 *    steps) until a step's p99 passes 1 s. First on both instances, then B is stopped and the same
 *    ramp runs on A alone: the baseline. bench/checkout.ts's closed-loop saturation (50 shoppers,
 *    one instance, no think time) is a different measure: latency there is 50 / throughput.
 * At the end every product's stock must be back where it started and no instance logged an error.
 *
 * Raised limit: CHECKOUT_RATE_LIMIT (20 checkouts per client address per 10 minutes) to 100000, as
 * bench/checkout.ts does; the hold limits stay at their defaults (a shopper holds one checkout, two
 * for a moment while its abandoned one waits for the sweeper).
 *
 *   npx tsx bench/checkout-scale.ts [--shoppers=200] [--instances=2] [--seconds=30] [--warmup=5]
 *     [--one-off=10] [--racers=10] [--ramp=10,20,30,...] [--ramp-seconds=8] [--ramp-baseline=1]
 *     [--pool=N] [--cpu-prof=DIR]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/server/db/client';
import { createLogger } from '../src/server/lib/logger';
import { startFakeMarketFeeds } from '../tests/fakes/market-feeds';
import { createProduct } from '../tests/factories/product';
import { figure, quantile, reportFigures, type Figure } from './support/figures';
import { Shopper, shopperAddress, type Answer, BENCH_SHIPPING, sleep } from './support/http-client';
import {
  createScratchDatabase,
  localLedgerOf,
  startShopProcess,
  type ShopProcess,
} from './support/shop-process';
import { startStripeProcess } from './support/stripe-process';

const argOf = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const arg = (name: string, fallback: number) => {
  const v = argOf(name);
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number >= 0`);
  return n;
};
const SHOPPERS = arg('shoppers', 200);
const INSTANCES = arg('instances', 2);
if (INSTANCES !== 1 && INSTANCES !== 2) throw new Error('--instances must be 1 or 2');
const SECONDS = arg('seconds', 30);
const WARMUP = arg('warmup', 5);
const ONE_OFF = arg('one-off', 10);
const RACERS = arg('racers', 10);
const RAMP = (argOf('ramp') ?? '10,20,30,40,50,60,80,100,125,150,200,250,300,400')
  .split(',')
  .filter(Boolean)
  .map(Number);
const RAMP_SECONDS = arg('ramp-seconds', 8);
/** Whether the ramp runs again on instance A alone (the baseline) after the two-instance ramp. */
const RAMP_BASELINE = arg('ramp-baseline', 1) === 1 && INSTANCES === 2;
const PROFILE_DIR = argOf('cpu-prof');
const POOL = argOf('pool');

const PRODUCTS = 200;
const STOCK = 1_000_000;
const TARGET_P99_MS = 100;
const SATURATION_P99_MS = 1_000;
const RESERVATION_MINUTES = 1;
const SWEEP_INTERVAL_SECONDS = 5;
const THINK_MIN_MS = 500;
const THINK_MAX_MS = 1_500;
const think = () => sleep(THINK_MIN_MS + Math.random() * (THINK_MAX_MS - THINK_MIN_MS));
/** Linux's USER_HZ: /proc reports CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;
const GROUP = `checkout at scale (${SHOPPERS} shoppers, ${INSTANCES} instance${INSTANCES === 1 ? '' : 's'})`;

interface Stats {
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const statsOf = (list: number[], seconds: number): Stats => {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    count: sorted.length,
    perSecond: sorted.length / seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
  };
};

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; 0 when it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the name), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The host's busy and total CPU seconds so far, from /proc/stat's first line. */
function hostCpuSeconds(): { busy: number; total: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const values = ticks.map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

/** Who used the CPU during a window: the processes of the run by group, and the host as a whole. */
interface CpuReading {
  groups: Record<string, number>;
  /** PostgreSQL backends of the scratch database, by process id (connections come and go). */
  backends: Map<number, number>;
  hostBusy: number;
  hostTotal: number;
}

type CpuSampler = () => Promise<CpuReading>;

const cpuDelta = (from: CpuReading, to: CpuReading): CpuReading => ({
  groups: {
    ...Object.fromEntries(
      Object.entries(to.groups).map(([k, v]) => [k, Math.max(0, v - (from.groups[k] ?? 0))]),
    ),
    // A backend that started inside the window counts whole; one that ended inside it is missed.
    PostgreSQL: [...to.backends].reduce((sum, [pid, v]) => sum + v - (from.backends.get(pid) ?? 0), 0),
  },
  backends: new Map(),
  hostBusy: to.hostBusy - from.hostBusy,
  hostTotal: to.hostTotal - from.hostTotal,
});

type Timed = (
  kind: string,
  request: () => Promise<Answer>,
  isOk: (a: Answer) => boolean,
) => Promise<Answer | null>;

interface PhaseResult {
  label: string;
  main: Stats;
  others: Map<string, Stats>;
  errors: number;
  samples: string[];
  clientLagP99: number;
  /** CPU used in the timed window, by group and on the whole host. */
  cpu: CpuReading | null;
}

/**
 * bench/checkout.ts's paced phase: every shopper runs `cycle` until the phase ends (a warm-up,
 * then SECONDS timed; requests that start inside the timed window count). `during` runs beside
 * the shoppers with the timed window's bounds (the one-off races).
 */
async function runPhase(
  label: string,
  mainKind: string,
  shoppers: Shopper[],
  cycle: (shopper: Shopper, index: number, timed: Timed, isOver: () => boolean) => Promise<void>,
  sampleCpu: CpuSampler,
  during?: (timedStart: number, timedEnd: number) => Promise<void>,
): Promise<PhaseResult> {
  const warmEnd = performance.now() + WARMUP * 1000;
  const end = warmEnd + SECONDS * 1000;
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
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const cpuAt: { from?: Promise<CpuReading>; to?: Promise<CpuReading> } = {};
  setTimeout(() => {
    lag.enable();
    cpuAt.from = sampleCpu();
  }, WARMUP * 1000).unref();
  setTimeout(
    () => {
      cpuAt.to = sampleCpu();
    },
    (WARMUP + SECONDS) * 1000,
  ).unref();
  await Promise.all([
    ...shoppers.map(async (shopper, i) => {
      await sleep(Math.random() * THINK_MAX_MS);
      while (!isOver()) await cycle(shopper, i, timed, isOver);
    }),
    during?.(warmEnd, end),
  ]);
  lag.disable();
  const others = new Map<string, Stats>();
  for (const [kind, list] of latencies) if (kind !== mainKind) others.set(kind, statsOf(list, SECONDS));
  const cpu = cpuAt.from && cpuAt.to ? cpuDelta(await cpuAt.from, await cpuAt.to) : null;
  return {
    label,
    main: statsOf(latencies.get(mainKind) ?? [], SECONDS),
    others,
    errors,
    samples,
    clientLagP99: lag.count > 0 ? lag.percentile(99) / 1e6 : 0,
    cpu,
  };
}

interface RampStep {
  offered: number;
  achieved: number;
  p50: number;
  p99: number;
  count: number;
  errors: number;
  sample: string | null;
}

/**
 * The open-loop ramp: at each offered rate, arrivals every 1000/rate ms for RAMP_SECONDS, each
 * handed to an idle shopper of the next instance in turn (FIFO wait when none is idle), created
 * (timed from its scheduled arrival) and cancelled. Stops after the first step whose p99 passes
 * SATURATION_P99_MS.
 */
async function ramp(
  label: string,
  pools: Shopper[][],
  cartOf: Map<Shopper, string>,
  itemsFor: () => Array<{ productId: string; size: 'M'; color: string; quantity: number }>,
  sampleCpu: CpuSampler,
): Promise<RampStep[]> {
  const idle = pools.map((p) => [...p]);
  const waiting: Array<Array<(s: Shopper) => void>> = pools.map(() => []);
  const take = (instance: number) =>
    new Promise<Shopper>((resolve) => {
      const s = idle[instance]!.pop();
      if (s) resolve(s);
      else waiting[instance]!.push(resolve);
    });
  const give = (instance: number, s: Shopper) => {
    const next = waiting[instance]!.shift();
    if (next) next(s);
    else idle[instance]!.push(s);
  };
  const steps: RampStep[] = [];
  for (const rate of RAMP) {
    const interval = 1000 / rate;
    const start = performance.now() + 50;
    const end = start + RAMP_SECONDS * 1000;
    const latencies: number[] = [];
    let errors = 0;
    let sample = null as string | null;
    let lastDone = start;
    const tasks: Promise<void>[] = [];
    const cpuFrom = await sampleCpu();
    const arrive = async (k: number, due: number) => {
      const instance = k % pools.length;
      const shopper = await take(instance);
      try {
        const created = await shopper.post('/api/checkout', {
          items: itemsFor(),
          shippingInfo: BENCH_SHIPPING,
          paymentMethod: 'sol',
          cartId: cartOf.get(shopper),
        });
        const done = performance.now();
        lastDone = Math.max(lastDone, done);
        if (created.status !== 201) {
          errors++;
          sample ??= `${created.status} ${created.body.slice(0, 200)}`;
          return;
        }
        latencies.push(done - due);
        const { reference } = JSON.parse(created.body) as { reference: string };
        const cancelled = await shopper.post(`/api/payments/${reference}/cancel`);
        if (cancelled.status !== 200) {
          errors++;
          sample ??= `cancel: ${cancelled.status} ${cancelled.body.slice(0, 200)}`;
        }
      } catch (err) {
        errors++;
        sample ??= `transport error: ${(err as Error).message}`;
      } finally {
        give(instance, shopper);
      }
    };
    let k = 0;
    for (;;) {
      const now = performance.now();
      while (start + k * interval <= now && start + k * interval < end) {
        tasks.push(arrive(k, start + k * interval));
        k++;
      }
      if (start + k * interval >= end) break;
      await sleep(Math.max(0, Math.min(5, start + k * interval - performance.now())));
    }
    await Promise.all(tasks);
    const cpu = cpuDelta(cpuFrom, await sampleCpu());
    const sorted = latencies.sort((a, b) => a - b);
    const step: RampStep = {
      offered: rate,
      achieved: (sorted.length / (Math.max(end, lastDone) - start)) * 1000,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      count: sorted.length,
      errors,
      sample,
    };
    steps.push(step);
    console.log(
      `  ramp ${label}: offered ${rate}/s -> ${step.achieved.toFixed(1)}/s created, p50 ${step.p50.toFixed(1)} ms, p99 ${step.p99.toFixed(1)} ms, errors ${step.errors}${step.sample ? ` (e.g. ${step.sample})` : ''}`,
    );
    const ours = Object.values(cpu.groups).reduce((x, y) => x + y, 0);
    console.log(
      `    CPU: host ${((100 * cpu.hostBusy) / cpu.hostTotal).toFixed(0)} % busy, others ${((100 * (cpu.hostBusy - ours)) / cpu.hostTotal).toFixed(0)} %; ms per checkout: ${Object.entries(
        cpu.groups,
      )
        .map(([k, v]) => `${k} ${((v / Math.max(1, sorted.length)) * 1000).toFixed(2)}`)
        .join(', ')}`,
    );
    if (!(step.p99 <= SATURATION_P99_MS)) break;
    await sleep(1000);
  }
  return steps;
}

/** The offered rate whose p99 first passed 1 s (null: not within the ramp), and the step before it. */
function saturationOf(steps: RampStep[]) {
  const passed = steps.find((s) => !(s.p99 <= SATURATION_P99_MS)) ?? null;
  const under = steps.filter((s) => s.p99 <= SATURATION_P99_MS).at(-1) ?? null;
  return { passed, under };
}

async function main() {
  const database = await createScratchDatabase();
  const stripe = await startStripeProcess();
  const feeds = await startFakeMarketFeeds();
  const servers: ShopProcess[] = [];
  const pgClient = new pg.Client({ connectionString: database.url });
  try {
    const common: Record<string, string> = {
      DATABASE_URL: database.url,
      SEED_DEMO: 'false',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      CHECKOUT_RATE_LIMIT: '100000',
      RESERVATION_MINUTES: String(RESERVATION_MINUTES),
      SWEEP_INTERVAL_SECONDS: String(SWEEP_INTERVAL_SECONDS),
      AIRDROP_SCHEDULER_INTERVAL_MS: '0',
      ...(POOL ? { DATABASE_POOL_SIZE: POOL } : {}),
    };
    const profiled = (name: string) =>
      PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE_DIR, name)}`] } : {};
    const a = await startShopProcess({ ...common, LOCAL_LEDGER: 'demo' }, profiled('a'));
    servers.push(a);
    if (INSTANCES === 2) {
      const ledger = localLedgerOf(a);
      servers.push(
        await startShopProcess(
          {
            ...common,
            SOLANA_RPC_URL: `${a.url}/local-chain`,
            SOLANA_CLUSTER: 'devnet',
            TOKEN_MINT: ledger.mint,
            SHOP_WALLET: ledger.shopWallet,
            TREASURY_SECRET_KEY: JSON.stringify(ledger.treasury),
            MARKET_DEX_URL: feeds.dexUrl,
            MARKET_PRICE_URL: feeds.priceUrl,
          },
          profiled('b'),
        ),
      );
    }
    stripe.setWebhook(`${a.url}/api/webhooks/stripe`);
    console.log(
      `instances: ${servers.map((s) => s.url).join(', ')} (A hosts the ledger); database ${database.name}`,
    );

    const db = await openDatabase({
      databaseUrl: database.url,
      pgliteDir: '',
      logger: createLogger('silent'),
    });
    const productIds: string[] = [];
    const oneOffIds: string[] = [];
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
      for (let i = 0; i < 2 * ONE_OFF; i++) {
        const p = await createProduct(db.db, {
          title: `Bench One-off ${i}`,
          priceCents: 3_500,
          quantity: 1,
          sizes: ['M'],
          colors: ['Black'],
        });
        oneOffIds.push(p.id);
      }
    } finally {
      await db.close();
    }
    await pgClient.connect();
    const sampleCpu: CpuSampler = async () => {
      const { rows } = await pgClient.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database.name],
      );
      const host = hostCpuSeconds();
      const client = process.cpuUsage();
      return {
        groups: {
          'shop instances': servers.reduce((sum, server) => sum + cpuSecondsOf(server.pid), 0),
          'bench client': (client.user + client.system) / 1e6,
          'Stripe stand-in': cpuSecondsOf(stripe.pid),
        },
        backends: new Map(rows.map((r) => [r.pid, cpuSecondsOf(r.pid)])),
        hostBusy: host.busy,
        hostTotal: host.total,
      };
    };

    let address = 0;
    const newShopper = (instance: ShopProcess) =>
      new Shopper(instance.url, shopperAddress(address++), instance.url);
    const shoppers = Array.from({ length: SHOPPERS }, (_, i) => newShopper(servers[i % servers.length]!));
    const cartOf = new Map(shoppers.map((s) => [s, crypto.randomUUID()]));

    let n = 0;
    const itemsFor = () => {
      n++;
      const lines = 1 + (n % 3);
      return Array.from({ length: lines }, (_, k) => ({
        productId: productIds[(n * 13 + k * 61) % PRODUCTS]!,
        size: 'M' as const,
        color: 'Black',
        quantity: 1,
      }));
    };
    const is200 = (a: Answer) => a.status === 200;
    const cancelled = (a: Answer) =>
      a.status === 200 && (JSON.parse(a.body) as { status: string }).status === 'expired';
    const checkoutCycle =
      (paymentMethod: 'card' | 'sol') =>
      async (shopper: Shopper, _i: number, timed: Timed, isOver: () => boolean) => {
        await timed('GET /api/checkout/config', () => shopper.get('/api/checkout/config'), is200);
        await think();
        if (isOver()) return;
        const created = await timed(
          'POST /api/checkout',
          () =>
            shopper.post('/api/checkout', {
              items: itemsFor(),
              shippingInfo: BENCH_SHIPPING,
              paymentMethod,
              cartId: cartOf.get(shopper),
            }),
          (a) => a.status === 201,
        );
        if (!created) return;
        await think();
        const { reference } = JSON.parse(created.body) as { reference: string };
        await timed(
          'POST /api/payments/:ref/cancel',
          () => shopper.post(`/api/payments/${reference}/cancel`),
          cancelled,
        );
        await think();
      };

    // One-off races: each product raced by RACERS fresh shoppers at once, spread over the window.
    const race = {
      winners: new Map<string, number>(),
      answers: [] as number[],
      errors: 0,
      samples: [] as string[],
      liveReservationsMax: 0,
    };
    const racesFor =
      (paymentMethod: 'card' | 'sol', products: string[]) => async (timedStart: number, timedEnd: number) => {
        const gap = (timedEnd - timedStart) / (products.length + 1);
        for (const [p, productId] of products.entries()) {
          await sleep(Math.max(0, timedStart + (p + 1) * gap - performance.now()));
          const racers = Array.from({ length: RACERS }, (_, r) => newShopper(servers[r % servers.length]!));
          const answers = await Promise.all(
            racers.map((racer) =>
              racer
                .post('/api/checkout', {
                  items: [{ productId, size: 'M', color: 'Black', quantity: 1 }],
                  shippingInfo: BENCH_SHIPPING,
                  paymentMethod,
                  cartId: crypto.randomUUID(),
                })
                .catch((err: unknown) => ({ status: 0, body: (err as Error).message, ms: 0 })),
            ),
          );
          for (const racer of racers) racer.close();
          let won = 0;
          for (const ans of answers) {
            race.answers.push(ans.ms);
            if (ans.status === 201) won++;
            else if (ans.status !== 409 || !ans.body.includes('OUT_OF_STOCK')) {
              race.errors++;
              if (race.samples.length < 5) race.samples.push(`${ans.status} ${ans.body.slice(0, 200)}`);
            }
          }
          race.winners.set(productId, won);
          const live = await pgClient.query<{ n: string }>(
            `select count(*) as n from stock_reservations
             where product_id = $1 and released_at is null and consumed_at is null`,
            [productId],
          );
          race.liveReservationsMax = Math.max(race.liveReservationsMax, Number(live.rows[0]!.n));
        }
      };

    const health = await runPhase(
      'GET /api/health',
      'GET /api/health',
      shoppers,
      async (shopper, _i, timed) => {
        await timed('GET /api/health', () => shopper.get('/api/health'), is200);
        await think();
      },
      sampleCpu,
    );
    const card = await runPhase(
      'card checkout',
      'POST /api/checkout',
      shoppers,
      checkoutCycle('card'),
      sampleCpu,
      racesFor('card', oneOffIds.slice(0, ONE_OFF)),
    );
    const sol = await runPhase(
      'SOL checkout',
      'POST /api/checkout',
      shoppers,
      checkoutCycle('sol'),
      sampleCpu,
      racesFor('sol', oneOffIds.slice(ONE_OFF)),
    );

    // Abandoned checkouts: one more SOL checkout per shopper, from a new cart, never paid or left.
    let abandonErrors = 0;
    await Promise.all(
      shoppers.map(async (shopper) => {
        const res = await shopper
          .post('/api/checkout', {
            items: itemsFor(),
            shippingInfo: BENCH_SHIPPING,
            paymentMethod: 'sol',
            cartId: crypto.randomUUID(),
          })
          .catch(() => null);
        if (res?.status !== 201) abandonErrors++;
      }),
    );
    const held = await pgClient.query<{ units: string; last: Date | null }>(
      `select coalesce(sum(quantity), 0) as units, max(expires_at) as last from stock_reservations
       where released_at is null and consumed_at is null`,
    );
    const heldUnits = Number(held.rows[0]!.units);
    const lastExpiry = held.rows[0]!.last;
    console.log(
      `held at the end of the paced phases: ${heldUnits} units, the last hold ends ${lastExpiry?.toISOString()}`,
    );

    // Saturation ramps: both instances, then A alone.
    console.log('saturation ramp, open loop, SOL:');
    const rampBoth = await ramp(
      `${servers.length} instance(s)`,
      servers.map((_, i) => shoppers.filter((_, j) => j % servers.length === i)),
      cartOf,
      itemsFor,
      sampleCpu,
    );
    for (const s of shoppers) s.close();
    let rampOne: RampStep[] | null = null;
    // B's log is read before it stops (stop() removes its data directory).
    const serverErrors = servers.flatMap((s) => s.errorLogLines());
    if (RAMP_BASELINE) {
      await servers[1]!.stop();
      const alone = Array.from({ length: SHOPPERS }, () => newShopper(a));
      const aloneCarts = new Map(alone.map((s) => [s, crypto.randomUUID()]));
      rampOne = await ramp('1 instance', [alone], aloneCarts, itemsFor, sampleCpu);
      for (const s of alone) s.close();
    }

    // Every held unit back by itself once its hold expired (the sweeper), the rest by the cancels.
    const waitUntil = (lastExpiry?.getTime() ?? Date.now()) + (SWEEP_INTERVAL_SECONDS * 2 + 30) * 1000;
    let missing = 0;
    let returnedAt = Number.NaN;
    for (;;) {
      const res = await pgClient.query<{ missing: string }>(
        `select coalesce(sum(case when title like 'Bench One-off%' then 1 - quantity else $1 - quantity end), 0) as missing
         from products`,
        [STOCK],
      );
      missing = Number(res.rows[0]!.missing);
      if (missing === 0) {
        returnedAt = Date.now();
        break;
      }
      if (Date.now() > waitUntil) break;
      await sleep(500);
    }
    serverErrors.push(...servers[0]!.errorLogLines().filter((l) => !serverErrors.includes(l)));

    const line = (label: string, r: Stats) =>
      `${label}: ${r.count} (${r.perSecond.toFixed(1)}/s), p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`;
    for (const r of [health, card, sol]) {
      console.log(
        `${line(`${r.label}, ${SECONDS} s`, r.main)}, errors ${r.errors}, bench client lag p99 ${r.clientLagP99.toFixed(1)} ms`,
      );
      for (const [kind, st] of r.others) console.log(`  ${line(kind, st)}`);
      for (const s of r.samples) console.log(`  e.g. ${s}`);
      if (r.cpu) {
        const ours = Object.values(r.cpu.groups).reduce((a, b) => a + b, 0);
        const perCycle = Object.entries(r.cpu.groups)
          .map(([k, v]) => `${k} ${((v / Math.max(1, r.main.count)) * 1000).toFixed(2)}`)
          .join(', ');
        console.log(
          `  CPU in the window: host ${((100 * r.cpu.hostBusy) / r.cpu.hostTotal).toFixed(0)} % busy, this run's processes ${((100 * ours) / r.cpu.hostTotal).toFixed(0)} %, others ${((100 * (r.cpu.hostBusy - ours)) / r.cpu.hostTotal).toFixed(0)} %; CPU ms per ${r.label === 'GET /api/health' ? 'request' : 'checkout (with its config and cancel)'}: ${perCycle}`,
        );
      }
    }
    const winners = [...race.winners.values()];
    const oversold = winners.reduce((sum, w) => sum + Math.max(0, w - 1), 0);
    const unsold = winners.filter((w) => w === 0).length;
    const raceStats = statsOf(race.answers, 1);
    console.log(
      `one-off races: ${winners.length} products x ${RACERS} shoppers, winners per product ${JSON.stringify(winners)}, answer p99 ${raceStats.p99.toFixed(1)} ms, unexpected answers ${race.errors}, most live reservations of one item ${race.liveReservationsMax}`,
    );
    for (const s of race.samples) console.log(`  e.g. ${s}`);
    console.log(
      `held stock: ${heldUnits} units held after the paced phases; ${missing} not back ${missing === 0 ? `(all back when looked at, after the ramps, ${((returnedAt - (lastExpiry?.getTime() ?? returnedAt)) / 1000).toFixed(1)} s after the last hold's expiry)` : 'at the deadline'}`,
    );
    if (serverErrors.length) console.log(`server error log:\n${serverErrors.slice(0, 10).join('\n')}`);

    const pacing = `think ${THINK_MIN_MS / 1000}-${THINK_MAX_MS / 1000} s`;
    const figures: Figure[] = [];
    for (const [key, r] of [
      ['card', card],
      ['SOL', sol],
    ] as const) {
      figures.push(
        figure(`${GROUP}, ${pacing}, ${key}: creations/s`, r.main.perSecond, '/s'),
        figure(`${GROUP}, ${pacing}, ${key}: p50 latency`, r.main.p50, 'ms', { baseline: health.main.p50 }),
        figure(`${GROUP}, ${pacing}, ${key}: p99 latency`, r.main.p99, 'ms', {
          baseline: health.main.p99,
          target: ['<', TARGET_P99_MS],
        }),
        figure(`${GROUP}, ${pacing}, ${key}: errors`, r.errors, '', { target: ['<=', 0] }),
        figure(`${GROUP}, ${pacing}, ${key}: bench client event-loop lag p99`, r.clientLagP99, 'ms'),
      );
      const cancel = r.others.get('POST /api/payments/:ref/cancel');
      if (cancel) figures.push(figure(`${GROUP}, ${pacing}, ${key}: cancel p99`, cancel.p99, 'ms'));
      if (r.cpu) {
        const perCheckout = (group: string) =>
          ((r.cpu!.groups[group] ?? 0) / Math.max(1, r.main.count)) * 1000;
        const ours = Object.values(r.cpu.groups).reduce((a, b) => a + b, 0);
        figures.push(
          figure(
            `${GROUP}, ${pacing}, ${key}: shop CPU per checkout (config, create, cancel)`,
            perCheckout('shop instances'),
            'ms',
          ),
          figure(`${GROUP}, ${pacing}, ${key}: PostgreSQL CPU per checkout`, perCheckout('PostgreSQL'), 'ms'),
          figure(
            `${GROUP}, ${pacing}, ${key}: host CPU busy in the window`,
            (100 * r.cpu.hostBusy) / r.cpu.hostTotal,
            '%',
          ),
          figure(
            `${GROUP}, ${pacing}, ${key}: host CPU taken by processes outside this bench`,
            (100 * (r.cpu.hostBusy - ours)) / r.cpu.hostTotal,
            '%',
          ),
        );
      }
    }
    figures.push(
      figure(`${GROUP}: one-off items sold to more than one shopper (${RACERS} racing each)`, oversold, '', {
        target: ['<=', 0],
      }),
      figure(`${GROUP}: one-off items raced that nobody got`, unsold, '', { target: ['<=', 0] }),
      figure(`${GROUP}: one-off race answers other than 201 or 409 OUT_OF_STOCK`, race.errors, '', {
        target: ['<=', 0],
      }),
      figure(`${GROUP}: one-off race answer p99`, raceStats.p99, 'ms'),
      figure(`${GROUP}: abandoned checkouts refused`, abandonErrors, '', { target: ['<=', 0] }),
      figure(`${GROUP}: units held when the shoppers left`, heldUnits, 'units'),
      figure(
        `${GROUP}: held units not back in stock after expiry (RESERVATION_MINUTES=${RESERVATION_MINUTES})`,
        missing,
        'units',
        { target: ['<=', 0] },
      ),
      figure(`${GROUP}: server error log lines`, serverErrors.length, '', { target: ['<=', 0] }),
    );
    const both = saturationOf(rampBoth);
    const one = rampOne ? saturationOf(rampOne) : null;
    const satGroup = `checkout saturation at scale (${SHOPPERS} shoppers, open-loop SOL ramp)`;
    const label = (s: { passed: RampStep | null }) => (s.passed ? '' : ' (not reached: highest rate tried)');
    figures.push(
      figure(
        `${satGroup}: offered checkouts/s where p99 passes 1 s, ${servers.length} instance(s)${label(both)}`,
        both.passed?.offered ?? RAMP.at(-1)!,
        '/s',
        { baseline: one ? (one.passed?.offered ?? RAMP.at(-1)!) : null },
      ),
      figure(
        `${satGroup}: creations/s at the last step under 1 s p99, ${servers.length} instance(s)`,
        both.under?.achieved ?? 0,
        '/s',
        { baseline: one ? (one.under?.achieved ?? 0) : null },
      ),
      figure(
        `${satGroup}: p99 at the last step under 1 s, ${servers.length} instance(s)`,
        both.under?.p99 ?? Number.NaN,
        'ms',
        { baseline: one ? (one.under?.p99 ?? null) : null },
      ),
    );
    reportFigures(figures);
    if (figures.some((f) => f.met === false)) process.exitCode = 1;
  } finally {
    await pgClient.end().catch(() => undefined);
    for (const server of servers.reverse()) await server.stop();
    await feeds.close();
    await stripe.close();
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
