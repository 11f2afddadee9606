import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '#common/schemas/events';
import { openDatabase, type Database } from '#server/db/client';
import { createCounters } from '#server/db/counters';
import { createRateLimiter } from '#server/db/rate-limiter';
import { openRedis, type EventTransport, type FixedWindowCounters, type RedisState } from '#server/db/redis';
import { RateLimitedError } from '#server/lib/app-error';
import { createLogger } from '#server/lib/logger';
import { createEventHub, MAX_NOTIFY_PAYLOAD_BYTES } from '#server/modules/events/event-hub';
import {
  BACKENDS,
  createScratchDatabase,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import { isRedisReachable, REDIS_TEST_URL, uniqueRedisPrefix, warnIfRedisSkipped } from '../helpers/redis';
import { openTestDatabase, startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The state instances share, behind one interface each, on every store the shop can use: the
 * rate-limit counters (rate_limit_counters in PGlite / PostgreSQL, or Redis with REDIS_URL) and the
 * live-event transport (LISTEN/NOTIFY, or Redis pub/sub). The same behaviour is asked of each.
 */

warnIfPostgresSkipped();
const redisReachable = await isRedisReachable();
warnIfRedisSkipped(redisReachable);

type Store = 'pglite' | 'postgres' | 'redis';
const STORES: Store[] = [...BACKENDS, ...(redisReachable ? (['redis'] as const) : [])];
const WAIT_MS = 5000;
const logger = createLogger('silent');

/** Two connections to one store: what two instances would hold. */
interface Pair {
  counters: FixedWindowCounters;
  /** Two transports on separate connections (PGlite has one: the same twice). */
  transports: [EventTransport, EventTransport];
  close(): Promise<void>;
}

async function openPair(store: Store): Promise<Pair> {
  if (store === 'redis') {
    const prefix = uniqueRedisPrefix();
    const a: RedisState = await openRedis({ url: REDIS_TEST_URL, prefix, logger });
    const b: RedisState = await openRedis({ url: REDIS_TEST_URL, prefix, logger });
    return {
      counters: a.counters,
      transports: [a.events, b.events],
      async close() {
        await a.close();
        await b.close();
      },
    };
  }
  const scratch: ScratchDatabase = await createScratchDatabase(store);
  const a: Database = await openTestDatabase(scratch);
  const b: Database =
    store === 'postgres'
      ? await openDatabase({ databaseUrl: scratch.url, pgliteDir: '', logger, poolSize: 2 })
      : a;
  const asTransport = (d: Database): EventTransport => ({
    listen: (channel, handler, onGap) => d.listen(channel, handler, onGap),
    notify: (channel, payload) => d.notify(channel, payload),
    maxPayloadBytes: MAX_NOTIFY_PAYLOAD_BYTES,
  });
  return {
    counters: createCounters(a.db),
    transports: [asTransport(a), asTransport(b)],
    async close() {
      if (b !== a) await b.close();
      await a.close();
      await scratch.drop();
    },
  };
}

describe.each(STORES)('shared state on %s', (store) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await openPair(store);
  });
  afterAll(async () => {
    await pair?.close();
  });

  describe('rate-limit counters', () => {
    it('lets max hits through in a window and refuses the next with the seconds left', async () => {
      const limiter = createRateLimiter(undefined as never, pair.counters);
      const rule = { max: 3, windowSeconds: 60 };
      for (let i = 0; i < 3; i++) await limiter.consume('test', 'client-a', rule);
      const refused = await limiter.consume('test', 'client-a', rule, 'Slow down').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RateLimitedError);
      expect((refused as RateLimitedError).message).toBe('Slow down');
      expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(55);
      expect((refused as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(60);
      // Another subject and another scope count apart.
      await limiter.consume('test', 'client-b', rule);
      await limiter.consume('other', 'client-a', rule);
    });

    it('starts a new window at 1 once the window has passed, stamped with its own start', async () => {
      const key = `window|${store}`;
      const t0 = 1_700_000_000_000;
      expect(await pair.counters.hitFixedWindow(key, 1000, t0)).toEqual({ count: 1, windowStartMs: t0 });
      expect(await pair.counters.hitFixedWindow(key, 1000, t0 + 999)).toEqual({
        count: 2,
        windowStartMs: t0,
      });
      expect(await pair.counters.hitFixedWindow(key, 1000, t0 + 1000)).toEqual({
        count: 1,
        windowStartMs: t0 + 1000,
      });
    });

    it('counts every concurrent hit exactly once', async () => {
      const now = Date.now();
      const counts = await Promise.all(
        Array.from(
          { length: 40 },
          async () => (await pair.counters.hitFixedWindow('race', 60_000, now)).count,
        ),
      );
      expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });
  });

  describe('live-event transport', () => {
    it('carries a notification from one connection to a listener on the other, until it stops listening', async () => {
      const [a, b] = pair.transports;
      const received: string[] = [];
      const stop = await b.listen('shop_test_channel', (payload) => received.push(payload));
      await a.notify('shop_test_channel', '{"n":1}');
      await expect.poll(() => received, { timeout: WAIT_MS, interval: 10 }).toEqual(['{"n":1}']);
      await stop();
      await a.notify('shop_test_channel', '{"n":2}');
      await a.notify('shop_test_channel_probe', '');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).toEqual(['{"n":1}']);
    });

    it('delivers an event too large for NOTIFY: with its data where the transport carries it, else the notice', async () => {
      const [a, b] = pair.transports;
      const sender = await createEventHub({ database: undefined as never, logger, transport: a });
      const receiver = await createEventHub({ database: undefined as never, logger, transport: b });
      try {
        const seen: LiveEvent[] = [];
        receiver.subscribe(['catalog'], (event) => seen.push(event));
        const description = 'x'.repeat(20_000);
        await sender.publish('catalog', { type: 'product.updated', data: { description } });
        await expect.poll(() => seen.length, { timeout: WAIT_MS, interval: 10 }).toBe(1);
        expect(seen[0]).toMatchObject({ topic: 'catalog', type: 'product.updated' });
        if (store === 'redis') expect(seen[0]?.data).toEqual({ description });
        else expect(seen[0]?.data).toBeUndefined();
      } finally {
        await sender.close();
        await receiver.close();
      }
    });
  });
});

describe.skipIf(!redisReachable)('Redis behind the shop (REDIS_URL)', () => {
  let a: TestApp | undefined;
  let b: TestApp | undefined;
  const env = { REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: uniqueRedisPrefix() };

  // Two instances with a database each (PGlite): only Redis joins them.
  beforeAll(async () => {
    a = await startTestApp({ backend: 'pglite', env });
    b = await startTestApp({ backend: 'pglite', env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('fans an event published on one instance out to the other', async () => {
    if (!a || !b) throw new Error('instances not started');
    expect(a.deps.redis).toBeDefined();
    const seen: LiveEvent[] = [];
    const stop = b.deps.events.subscribe(['catalog'], (event) => seen.push(event));
    try {
      await a.deps.events.publish('catalog', { type: 'product.created', data: { id: 'from-a' } });
      await expect
        .poll(() => seen, { timeout: WAIT_MS, interval: 10 })
        .toMatchObject([{ topic: 'catalog', type: 'product.created', data: { id: 'from-a' } }]);
    } finally {
      stop();
    }
  });

  it('tells subscribers events may have been missed when the subscriber connection comes back', async () => {
    if (!a || !b) throw new Error('instances not started');
    let gaps = 0;
    const stop = b.deps.events.subscribe(['catalog'], () => undefined, { onGap: () => gaps++ });
    try {
      // Kill the instances' subscriber connections (by their client name) from another connection.
      expect(await killConnectionsNamed(`${env.REDIS_PREFIX}events`)).toBeGreaterThanOrEqual(1);
      await expect.poll(() => gaps, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(1);
      const seen: LiveEvent[] = [];
      const again = b.deps.events.subscribe(['catalog'], (event) => seen.push(event));
      await a.deps.events.publish('catalog', { type: 'product.updated', data: { id: 'after-gap' } });
      await expect.poll(() => seen.length, { timeout: WAIT_MS, interval: 10 }).toBe(1);
      again();
    } finally {
      stop();
    }
  });
});

/** CLIENT KILL of every connection with this name (both instances' subscribers share it). */
async function killConnectionsNamed(name: string): Promise<number> {
  const { createClient } = await import('redis');
  const admin = createClient({ url: REDIS_TEST_URL });
  await admin.connect();
  try {
    const list = await admin.clientList();
    const ids = list.filter((c) => c.name === name).map((c) => c.id);
    for (const id of ids) await admin.clientKill({ filter: 'ID', id: Number(id) });
    return ids.length;
  } finally {
    await admin.close();
  }
}
