import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database, PoolStats } from '#server/db/client';
import type { PaymentStatus } from '#server/db/schema';
import type { JobTicks } from '#server/jobs/job-ticks';
import type { OpenStreams } from '#server/modules/events/open-streams';
import { createMetricsRepository } from './metrics.repository';

/** Every payment status (db/schema.ts), so that each has a series even at zero. */
const PAYMENT_STATES: PaymentStatus[] = ['pending', 'confirmed', 'expired', 'failed', 'cancelled'];

/** Request latency buckets, in seconds: API answers are milliseconds, pages tens of them. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface RequestSample {
  method: string;
  /** The matched route pattern (never the raw path: the label's values stay few). */
  route: string;
  status: number;
  seconds: number;
}

export interface MetricsService {
  observeRequest(sample: RequestSample): void;
  /** The Prometheus text exposition of every metric, read now. */
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * The shop's Prometheus metrics, in a registry of this app instance (never prom-client's global
 * one: tests run several apps in one process). HTTP requests are counted as they finish; the
 * payments, job lag, live streams and database pool are read when Prometheus scrapes.
 */
export function createMetricsService(deps: {
  database: Database;
  jobTicks: JobTicks;
  streams: OpenStreams;
}): MetricsService {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const repository = createMetricsRepository(deps.database.db);

  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = new Counter({
    name: 'shop_http_requests_total',
    help: 'HTTP requests answered, by method, matched route pattern and status class',
    labelNames,
    registers,
  });
  const latency = new Histogram({
    name: 'shop_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to its headers for a stream), by method, route pattern and status class',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  // Read from the database once per scrape, before the registry collects (its gauges collect at once).
  let payments: Map<PaymentStatus, number> | null = null;
  new Gauge({
    name: 'shop_database_up',
    help: 'Whether the database answered this scrape (1) or not (0)',
    registers,
    collect() {
      this.set(payments ? 1 : 0);
    },
  });
  new Gauge({
    name: 'shop_payments_by_state',
    help: 'Payments in the database by state (read at scrape time; absent while the database is down)',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset();
      if (!payments) return;
      for (const state of new Set([...PAYMENT_STATES, ...payments.keys()])) {
        this.set({ state }, payments.get(state) ?? 0);
      }
    },
  });
  new Gauge({
    name: 'shop_job_lag_seconds',
    help: 'Seconds since each periodic job of this instance last completed a tick',
    labelNames: ['job'],
    registers,
    collect() {
      this.reset();
      for (const { job, seconds } of deps.jobTicks.lagSeconds()) this.set({ job }, seconds);
    },
  });
  new Gauge({
    name: 'shop_live_event_streams',
    help: 'Live-event streams (/api/events) open on this instance, public and of admin topics',
    labelNames: ['kind'],
    registers,
    collect() {
      this.set({ kind: 'public' }, deps.streams.public);
      this.set({ kind: 'admin' }, deps.streams.admin);
    },
  });
  const poolStats = deps.database.poolStats?.bind(deps.database);
  // PostgreSQL's pool; PGlite is one in-process connection and exports none.
  if (poolStats) {
    const pool = (name: string, help: string, read: (s: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(poolStats()));
        },
      });
    pool('shop_db_pool_clients', 'PostgreSQL connections open in the pool', (s) => s.total);
    pool('shop_db_pool_idle_clients', 'PostgreSQL connections open and idle in the pool', (s) => s.idle);
    pool('shop_db_pool_waiting_requests', 'Queries waiting for a free pool connection', (s) => s.waiting);
  }

  return {
    observeRequest({ method, route, status, seconds }) {
      const labels = { method, route, status_class: `${Math.floor(status / 100)}xx` };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    async render() {
      payments = await repository
        .countPaymentsByStatus()
        .then((rows) => new Map(rows.map((r) => [r.status, r.count])))
        .catch(() => null);
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
