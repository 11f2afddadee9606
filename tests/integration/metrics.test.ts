import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '#server/app';
import { startReservationSweeper } from '#server/jobs/reservation-sweeper';
import { SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * GET /metrics (issue 41): off without METRICS_TOKEN (404), 401 without the right bearer token,
 * and with it the Prometheus text: requests by route pattern, payments by state read from the
 * database, job lag, open live-event streams, the PostgreSQL pool and the process's own metrics.
 * Through the real app and database, on both backends.
 */

const TOKEN = 'metrics-test-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

/** The value of one sample (`name{labels} value`), or undefined when the text has none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found.get(k) === v)) return Number(match[3]);
  }
  return undefined;
}

describe.each(BACKENDS)('metrics (%s)', (backend) => {
  let t: TestApp;
  let fake: FakeStripeServer;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: { ...stripeEnv(fake), METRICS_TOKEN: TOKEN, ANONYMOUS_HOLD_SHARE_PERCENT: '100' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const scrape = async () => {
    const res = await t.app.request('/metrics', { headers: auth });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('is off without METRICS_TOKEN: /metrics is an unknown route', async () => {
    const off = createApp({ ...t.deps, config: { ...t.deps.config, metrics: { token: null } } });
    expect((await off.request('/metrics')).status).toBe(404);
    expect((await off.request('/metrics', { headers: auth })).status).toBe(404);
  });

  it('refuses a missing or wrong token with 401', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-of-some-length',
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const res = await t.app.request('/metrics', { headers: authorization ? { authorization } : {} });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.text()).not.toContain('shop_http_requests_total');
    }
  });

  it('counts requests by method, route pattern and status class, never by raw path', async () => {
    const ids = ['1b4e28ba-2fa1-41d2-883f-0016d3cca427', '2b4e28ba-2fa1-41d2-883f-0016d3cca427'];
    for (const id of ids) expect((await t.app.request(`/api/products/${id}`)).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await t.app.request('/api/health/live')).status).toBe(200);
    expect((await t.app.request('/api/no-such-thing-here')).status).toBe(404);
    // The web app's pages, found or not, are one label.
    expect((await t.app.request('/faq')).status).toBe(200);
    expect((await t.app.request('/no-such-page-here')).status).toBe(404);
    const text = await scrape();
    expect(text).toMatch(/^# TYPE shop_http_requests_total counter$/m);
    expect(
      sample(text, 'shop_http_requests_total', {
        method: 'GET',
        route: '/api/products/:id',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'shop_http_requests_total', {
        method: 'GET',
        route: '/api/health/live',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      sample(text, 'shop_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/health/live',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      sample(text, 'shop_http_requests_total', { route: '/api/*', status_class: '4xx' }),
    ).toBeGreaterThan(0);
    expect(sample(text, 'shop_http_requests_total', { route: 'pages', status_class: '2xx' })).toBeGreaterThan(
      0,
    );
    expect(sample(text, 'shop_http_requests_total', { route: 'pages', status_class: '4xx' })).toBeGreaterThan(
      0,
    );
    for (const raw of [...ids, 'no-such-thing-here', 'faq', 'no-such-page-here'])
      expect(text).not.toContain(raw);
    // prom-client's default process metrics, in this app's own registry.
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
    expect((await t.app.request('/metrics', { headers: auth })).headers.get('content-type')).toMatch(
      /^text\/plain; version=0\.0\.4/,
    );
  });

  it('reports payments by state from the database, a new checkout included', async () => {
    const before = sample(await scrape(), 'shop_payments_by_state', { state: 'pending' });
    expect(before).toBeDefined();
    expect(sample(await scrape(), 'shop_payments_by_state', { state: 'confirmed' })).toBeDefined();
    const product = await createProduct(t.deps.database.db);
    const res = await t.client().post('/api/checkout', {
      items: [{ productId: product.id, size: 'S', color: 'Black', quantity: 1 }],
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
    });
    expect(res.status).toBe(201);
    const text = await scrape();
    expect(sample(text, 'shop_payments_by_state', { state: 'pending' })).toBe(before! + 1);
    expect(sample(text, 'shop_database_up')).toBe(1);
  });

  it('reports each running job’s lag, and drops it when the job stops', async () => {
    const sweeper = startReservationSweeper(t.deps);
    try {
      const lag = await vi.waitFor(
        async () => {
          const value = sample(await scrape(), 'shop_job_lag_seconds', { job: 'reservation-sweeper' });
          expect(value, 'the sweeper’s first tick').toBeLessThan(5);
          return value!;
        },
        { timeout: 30_000, interval: 100 },
      );
      expect(lag).toBeGreaterThanOrEqual(0);
    } finally {
      await sweeper.stop();
    }
    expect(sample(await scrape(), 'shop_job_lag_seconds', { job: 'reservation-sweeper' })).toBeUndefined();
  });

  it('counts open live-event streams while one is open, and not after it closed', async () => {
    const streams = () =>
      scrape().then((text) => sample(text, 'shop_live_event_streams', { kind: 'public' }));
    expect(await streams()).toBe(0);
    const res = await t.app.request('/api/events?topics=catalog');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    expect(await streams()).toBe(1);
    await reader.cancel();
    await expect.poll(streams, { timeout: 30_000, interval: 100, message: 'the stream released' }).toBe(0);
  });

  it('exports the PostgreSQL pool (and nothing for PGlite’s one connection)', async () => {
    const text = await scrape();
    if (backend === 'postgres') {
      expect(sample(text, 'shop_db_pool_clients')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'shop_db_pool_idle_clients')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'shop_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(text).not.toContain('shop_db_pool_');
    }
  });
});
