/**
 * What saturates first across instances, in the state they share: rate-limit counters, the
 * live-event fan-out, and the live streams one instance holds. PostgreSQL (the default) is the
 * baseline; Redis (REDIS_URL, optional) runs the same steps beside it in the same run.
 *
 * 1. Rate-limit counters: the real limiter (db/rate-limiter.ts `consume`) on PostgreSQL's
 *    rate_limit_counters and on Redis's Lua fixed window. An "instance" is a process of its own
 *    with its own connections (a pool of DATABASE_POOL_SIZE=10, or one Redis connection) and
 *    --concurrency callers in flight (default 20), over 10,000 client keys; 1, 2 and 4 instances
 *    start together for --seconds. Figures: hits/s over all instances and the p99 of one hit. Also
 *    4 instances on one hot key (one network behind a NAT), where PostgreSQL serialises on its row.
 * 2. Live-event fan-out through the real event hub: one publishing hub and two listening hubs, each
 *    on its own connection (LISTEN connection or Redis subscriber). Saturated (16 publishes in
 *    flight): events/s received by both listeners; paced (200 events/s): publish-to-receive p99.
 *    And events around NOTIFY's 8,000-byte payload limit: 1 kB, 7.8 kB, 16 kB and 64 kB of data,
 *    delivered with their data or as a bare notice (the hub's fallback, never lost).
 * 3. Live streams on one instance: the shop from source (tsx) on PostgreSQL, EVENTS_MAX_STREAMS
 *    streams (--streams, default its default 2000) opened over HTTP; the server's RSS and JS heap
 *    per stream (after a GC, before and after), one event's time to reach every stream, and what
 *    the stream past the cap gets (503, Retry-After).
 *
 *   npx tsx bench/shared-state.ts [--seconds=5] [--concurrency=20] [--streams=2000] [--skip-streams]
 *
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres
 * (a scratch database is created and dropped). Redis: REDIS_URL, else redis://127.0.0.1:6379 (a
 * prefix of its own; skipped, and said so, when it does not answer).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { createRateLimiter } from '../src/server/db/rate-limiter';
import { openRedis, type RedisState } from '../src/server/db/redis';
import { createLogger } from '../src/server/lib/logger';
import { migrationsDir } from '../src/server/lib/paths';
import { createEventHub, EVENTS_CHANNEL, type EventHub } from '../src/server/modules/events/event-hub';
import { isRedisReachable, REDIS_TEST_URL } from '../tests/helpers/redis';
import { figure, reportFigures, type Figure } from './support/figures';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const argOf = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const num = (name: string, fallback: number) => Number(argOf(name) ?? fallback);
const SECONDS = num('seconds', 5);
const CONCURRENCY = num('concurrency', 20);
const STREAMS = num('streams', 2000);
const SKIP_STREAMS = process.argv.includes('--skip-streams');
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const logger = createLogger('warn');

type Store = 'postgres' | 'redis';

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

// ---------------------------------------------------------------- child: one instance's limiter

interface LimiterResult {
  hits: number;
  seconds: number;
  latenciesMs: number[];
}

async function runLimiterInstance(): Promise<void> {
  const store = argOf('store') as Store;
  const url = argOf('url')!;
  const prefix = argOf('prefix')!;
  const hot = process.argv.includes('--hot');
  const database = await openDatabase({ databaseUrl: url, pgliteDir: '', logger, poolSize: 10 });
  const redis = store === 'redis' ? await openRedis({ url: REDIS_TEST_URL, prefix, logger }) : undefined;
  const limiter = createRateLimiter(database.db, redis?.counters);
  const rule = { max: 1_000_000_000, windowSeconds: 60 };
  // Warm the connections, then wait for the start signal so every instance starts together.
  await Promise.all(Array.from({ length: CONCURRENCY }, () => limiter.consume('bench-warm', 'w', rule)));
  console.log('ready');
  const stdin = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => stdin.once('line', () => resolve()));
  stdin.close();
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const subject = hot ? 'hot' : `client-${Math.floor(Math.random() * 10_000)}`;
        const t = performance.now();
        await limiter.consume('bench', subject, rule);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const result: LimiterResult = {
    hits: latencies.length,
    seconds,
    latenciesMs: latencies.map((l) => Math.round(l * 100) / 100),
  };
  // stdout to a pipe is asynchronous: exit only once the line is written.
  await new Promise((resolve) => process.stdout.write(`result ${JSON.stringify(result)}\n`, resolve));
  await redis?.close();
  await database.close();
  process.exit(0);
}

/** Runs `instances` limiter processes together; hits/s over all of them and the p99 of one hit. */
async function limiterRun(store: Store, url: string, prefix: string, instances: number, hot = false) {
  const children: ChildProcess[] = [];
  const results: Promise<LimiterResult>[] = [];
  const readies: Promise<void>[] = [];
  for (let i = 0; i < instances; i++) {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        SELF,
        '--role=limiter',
        `--store=${store}`,
        `--url=${url}`,
        `--prefix=${prefix}`,
        `--seconds=${SECONDS}`,
        `--concurrency=${CONCURRENCY}`,
        ...(hot ? ['--hot'] : []),
      ],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    children.push(child);
    const lines = createInterface({ input: child.stdout });
    let onReady: () => void = () => undefined;
    readies.push(new Promise((resolve) => (onReady = resolve)));
    results.push(
      new Promise((resolve, reject) => {
        lines.on('line', (line) => {
          if (line === 'ready') onReady();
          else if (line.startsWith('result ')) resolve(JSON.parse(line.slice(7)) as LimiterResult);
        });
        child.once('exit', (code) => reject(new Error(`limiter instance exited ${code}`)));
      }),
    );
  }
  await Promise.all(readies);
  for (const child of children) child.stdin!.write('go\n');
  const all = await Promise.all(results);
  for (const child of children) child.kill();
  const seconds = Math.max(...all.map((r) => r.seconds));
  const hits = all.reduce((n, r) => n + r.hits, 0);
  const sorted = all.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
  return { perSecond: hits / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

// ---------------------------------------------------------------- fan-out

interface Transports {
  publisher: EventHub;
  listeners: [EventHub, EventHub];
  close(): Promise<void>;
}

async function openHubs(store: Store, url: string, prefix: string): Promise<Transports> {
  const databases: Database[] = [];
  const redises: RedisState[] = [];
  const hub = async () => {
    const database = await openDatabase({ databaseUrl: url, pgliteDir: '', logger, poolSize: 10 });
    databases.push(database);
    const redis = store === 'redis' ? await openRedis({ url: REDIS_TEST_URL, prefix, logger }) : undefined;
    if (redis) redises.push(redis);
    return createEventHub({ database, logger, transport: redis?.events });
  };
  const publisher = await hub();
  const listeners: [EventHub, EventHub] = [await hub(), await hub()];
  return {
    publisher,
    listeners,
    async close() {
      for (const h of [publisher, ...listeners]) await h.close();
      for (const r of redises) await r.close();
      for (const d of databases) await d.close();
    },
  };
}

/** Publishes with `inFlight` publishes outstanding (or paced at `rate`/s) for SECONDS; both listeners count. */
async function fanOutRun(hubs: Transports, mode: { inFlight: number } | { rate: number }) {
  const latencies: number[] = [];
  const received = [0, 0];
  const run = randomBytes(4).toString('hex');
  const offs = hubs.listeners.map((hub, i) =>
    hub.subscribe(['catalog'], (event) => {
      const data = event.data as { run?: string; t?: number } | undefined;
      if (data?.run !== run || data.t === undefined) return;
      received[i]!++;
      latencies.push(performance.now() - data.t);
    }),
  );
  let sent = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const publish = () =>
    hubs.publisher.publish('catalog', { type: 'product.updated', data: { run, t: performance.now() } });
  if ('inFlight' in mode) {
    await Promise.all(
      Array.from({ length: mode.inFlight }, async () => {
        while (performance.now() < until) {
          await publish();
          sent++;
        }
      }),
    );
  } else {
    const pending: Promise<void>[] = [];
    while (performance.now() < until) {
      const due = started + (sent * 1000) / mode.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(publish());
      sent++;
    }
    await Promise.all(pending);
  }
  // Drain: wait until both listeners have everything (or 10 s).
  const drainUntil = performance.now() + 10_000;
  while ((received[0]! < sent || received[1]! < sent) && performance.now() < drainUntil)
    await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  for (const off of offs) off();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    sent,
    lost: 2 * sent - received[0]! - received[1]!,
    perSecond: Math.min(received[0]!, received[1]!) / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/** One event with `bytes` of data through the hubs: did it arrive at both, and with its data? */
async function bigEvent(hubs: Transports, bytes: number): Promise<'data' | 'notice' | 'lost'> {
  const run = randomBytes(4).toString('hex');
  const got: Array<unknown> = [];
  const offs = hubs.listeners.map((hub) =>
    hub.subscribe(['catalog'], (event) => {
      if (event.type !== 'stock.changed') return;
      got.push(event.data);
    }),
  );
  await hubs.publisher.publish('catalog', { type: 'stock.changed', data: { run, body: 'x'.repeat(bytes) } });
  const until = performance.now() + 3000;
  while (got.length < 2 && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
  for (const off of offs) off();
  if (got.length < 2) return 'lost';
  return got.every((d) => (d as { run?: string } | undefined)?.run === run) ? 'data' : 'notice';
}

// ---------------------------------------------------------------- live streams

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

async function streamsRun(url: string, limit: number) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-streams-'));
  const metricsToken = randomBytes(16).toString('hex');
  const server = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--import', './bench/support/gc-on-signal.ts', 'src/server/main.ts'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        LOCAL_LEDGER: 'off',
        LOG_LEVEL: 'warn',
        METRICS_TOKEN: metricsToken,
        EVENTS_MAX_STREAMS: String(limit),
        EVENTS_MAX_STREAMS_PER_CLIENT: '100000',
        EVENTS_HEARTBEAT_SECONDS: '25',
        REDIS_URL: '',
      },
    },
  );
  server.stdout.resume();
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${base}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error('shop did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  const settle = async () => {
    // A full GC in the server (bench/support/gc-on-signal.ts), then RSS: what the system charges.
    for (let i = 0; i < 2; i++) {
      server.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 750));
    }
    return rssOf(server.pid!);
  };
  const heapUsed = async () => {
    const text = await (
      await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN);
  };
  const rssBefore = await settle();
  const heapBefore = await heapUsed();
  const streams: IncomingMessage[] = [];
  const received = new Map<IncomingMessage, (marker: string) => void>();
  const open = () =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${base}/api/events?topics=catalog`, { agent: false }, (res) => {
        if (res.statusCode !== 200) {
          resolve(res);
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          const match = /"marker":"([0-9a-f]+)"/.exec(buffer);
          if (match) {
            received.get(res)?.(match[1]!);
            buffer = '';
          } else if (buffer.length > 4096) buffer = buffer.slice(-1024);
        });
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
  for (let i = 0; i < limit; i += 100) {
    const batch = await Promise.all(Array.from({ length: Math.min(100, limit - i) }, open));
    for (const res of batch) {
      if (res.statusCode !== 200) throw new Error(`stream ${streams.length} answered ${res.statusCode}`);
      streams.push(res);
    }
  }
  const over = await open();
  const overStatus = over.statusCode ?? 0;
  const retryAfter = Number(over.headers['retry-after'] ?? NaN);
  over.resume();
  const rssAfter = await settle();
  const heapAfter = await heapUsed();

  // One event to every stream: from NOTIFY to the last stream's frame.
  const marker = randomBytes(6).toString('hex');
  const arrivals: Promise<number>[] = streams.map(
    (res) => new Promise((resolve) => received.set(res, (m) => m === marker && resolve(performance.now()))),
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t0 = performance.now();
  await client.query('select pg_notify($1, $2)', [
    EVENTS_CHANNEL,
    JSON.stringify({
      topic: 'catalog',
      type: 'product.updated',
      data: { marker },
      id: `${Date.now().toString(36)}-${marker}`,
    }),
  ]);
  const last = Math.max(...(await Promise.all(arrivals)));
  await client.end();
  for (const res of streams) res.destroy();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  return {
    rssPerStreamKiB: (rssAfter - rssBefore) / limit / 1024,
    heapPerStreamKiB: (heapAfter - heapBefore) / limit / 1024,
    rssAfterMiB: rssAfter / 1024 / 1024,
    overStatus,
    retryAfter,
    fanOutMs: last - t0,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const role = argOf('role');
  if (role === 'limiter') return runLimiterInstance();

  console.log(
    `host: ${cpus().length} CPUs, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const name = `shop_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const maxConnections = Number(
    (await admin.query<{ max_connections: string }>('show max_connections')).rows[0]?.max_connections,
  );
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const redisUp = await isRedisReachable();
  if (!redisUp)
    console.log(`SKIPPED: the Redis runs (no Redis answers at ${REDIS_TEST_URL}); PostgreSQL only`);
  const stores: Store[] = redisUp ? ['postgres', 'redis'] : ['postgres'];
  const prefix = `bench-${randomBytes(4).toString('hex')}:`;
  const figures: Figure[] = [];
  try {
    const setup = await openDatabase({ databaseUrl: dbUrl, pgliteDir: '', logger });
    await migrate(setup, migrationsDir, logger);
    await setup.close();

    // 1. rate-limit counters
    const limiter: Record<Store, Record<string, { perSecond: number; p50: number; p99: number }>> = {
      postgres: {},
      redis: {},
    };
    for (const instances of [1, 2, 4]) {
      for (const store of stores) {
        const r = await limiterRun(store, dbUrl, prefix, instances);
        limiter[store][instances] = r;
        console.log(
          `rate limit, ${store}, ${instances} instance(s) x ${CONCURRENCY} in flight: ${r.perSecond.toFixed(0)} hits/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
        );
      }
    }
    for (const store of stores) {
      const r = await limiterRun(store, dbUrl, prefix, 4, true);
      limiter[store].hot = r;
      console.log(
        `rate limit, ${store}, 4 instances on one key: ${r.perSecond.toFixed(0)} hits/s, p99 ${r.p99.toFixed(2)} ms`,
      );
    }
    for (const key of ['1', '2', '4', 'hot']) {
      const label = key === 'hot' ? '4 instances, one hot key' : `${key} instance${key === '1' ? '' : 's'}`;
      const p = limiter.postgres[key]!;
      figures.push(figure(`shared state: rate-limit hits/s, PostgreSQL, ${label}`, p.perSecond, 'hits/s'));
      figures.push(figure(`shared state: rate-limit hit p99, PostgreSQL, ${label}`, p.p99, 'ms'));
      const r = limiter.redis[key];
      if (r) {
        figures.push(
          figure(`shared state: rate-limit hits/s, Redis, ${label}`, r.perSecond, 'hits/s', {
            baseline: p.perSecond,
          }),
        );
        figures.push(
          figure(`shared state: rate-limit hit p99, Redis, ${label}`, r.p99, 'ms', { baseline: p.p99 }),
        );
      }
    }

    // 2. fan-out
    const fan: Record<string, Record<string, number | string>> = {};
    for (const store of stores) {
      const hubs = await openHubs(store, dbUrl, prefix);
      try {
        const saturated = await fanOutRun(hubs, { inFlight: 16 });
        const paced = await fanOutRun(hubs, { rate: 200 });
        const sizes: Record<string, string> = {};
        for (const bytes of [1_000, 7_800, 16_000, 64_000]) sizes[bytes] = await bigEvent(hubs, bytes);
        fan[store] = {
          saturatedPerSecond: saturated.perSecond,
          saturatedP99: saturated.p99,
          lost: saturated.lost + paced.lost,
          pacedP50: paced.p50,
          pacedP99: paced.p99,
          ...Object.fromEntries(Object.entries(sizes).map(([b, v]) => [`event ${b} B`, v])),
        };
        console.log(`fan-out, ${store}: ${JSON.stringify(fan[store])}`);
      } finally {
        await hubs.close();
      }
    }
    const pgFan = fan.postgres!;
    figures.push(
      figure(
        'shared state: events/s to 2 listeners, PostgreSQL NOTIFY',
        pgFan.saturatedPerSecond as number,
        'events/s',
      ),
    );
    figures.push(
      figure(
        'shared state: publish-to-receive p99 at 200 events/s, PostgreSQL NOTIFY',
        pgFan.pacedP99 as number,
        'ms',
      ),
    );
    figures.push(
      figure('shared state: events lost, PostgreSQL NOTIFY', pgFan.lost as number, 'events', {
        target: ['<=', 0],
      }),
    );
    const withData = (f: Record<string, number | string>) =>
      ['1000', '7800', '16000', '64000'].filter((b) => f[`event ${b} B`] === 'data').length;
    const delivered = (f: Record<string, number | string>) =>
      ['1000', '7800', '16000', '64000'].filter((b) => f[`event ${b} B`] !== 'lost').length;
    figures.push(
      figure(
        'shared state: of 4 events (1, 7.8, 16, 64 kB) delivered, PostgreSQL',
        delivered(pgFan),
        'events',
        { target: ['>=', 4] },
      ),
    );
    figures.push(
      figure(
        'shared state: of 4 events (1, 7.8, 16, 64 kB) with their data, PostgreSQL',
        withData(pgFan),
        'events',
      ),
    );
    const rFan = fan.redis;
    if (rFan) {
      figures.push(
        figure(
          'shared state: events/s to 2 listeners, Redis pub/sub',
          rFan.saturatedPerSecond as number,
          'events/s',
          { baseline: pgFan.saturatedPerSecond as number },
        ),
      );
      figures.push(
        figure(
          'shared state: publish-to-receive p99 at 200 events/s, Redis pub/sub',
          rFan.pacedP99 as number,
          'ms',
          { baseline: pgFan.pacedP99 as number },
        ),
      );
      figures.push(
        figure('shared state: events lost, Redis pub/sub', rFan.lost as number, 'events', {
          target: ['<=', 0],
        }),
      );
      figures.push(
        figure('shared state: of 4 events (1, 7.8, 16, 64 kB) delivered, Redis', delivered(rFan), 'events', {
          target: ['>=', 4],
        }),
      );
      figures.push(
        figure(
          'shared state: of 4 events (1, 7.8, 16, 64 kB) with their data, Redis',
          withData(rFan),
          'events',
          { baseline: withData(pgFan) },
        ),
      );
    }

    // 3. live streams
    if (!SKIP_STREAMS) {
      const s = await streamsRun(dbUrl, STREAMS);
      console.log(`live streams: ${JSON.stringify(s)}`);
      figures.push(
        figure(
          `shared state: server RSS per open live stream (${STREAMS} streams)`,
          s.rssPerStreamKiB,
          'KiB',
        ),
      );
      figures.push(
        figure(`shared state: JS heap per open live stream (${STREAMS} streams)`, s.heapPerStreamKiB, 'KiB'),
      );
      figures.push(
        figure(`shared state: one event to all ${STREAMS} streams of an instance`, s.fanOutMs, 'ms'),
      );
      figures.push(
        figure(`shared state: status of stream ${STREAMS + 1} (over EVENTS_MAX_STREAMS)`, s.overStatus, '', {
          target: ['>=', 503],
        }),
      );
      figures.push(figure('shared state: its Retry-After', s.retryAfter, 's'));
    }
    figures.push(
      figure('shared state: PostgreSQL connections per instance (pool 10 + LISTEN)', 11, 'connections', {
        baseline: maxConnections,
      }),
    );
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  reportFigures(figures);
  if (figures.some((f) => f.met === false)) process.exitCode = 1;
}

await main();
