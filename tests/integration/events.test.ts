import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  isPublishableTopic,
  LIVE_EVENTS_RETRY_MS,
  parseTopicList,
  resolveTopic,
  type LiveEventMessage,
} from '#common/schemas/events';
import type { SessionUser } from '#common/schemas/auth';
import { MAX_NOTIFY_PAYLOAD_BYTES } from '#server/modules/events/event-hub';
import { queryKeysForTopic, reconnectDelay } from '#web/lib/live-events';
import {
  BACKENDS,
  createScratchDatabase,
  TEST_DATABASE_URL,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';

warnIfPostgresSkipped();
if (!TEST_DATABASE_URL) {
  console.warn(
    'SKIPPED: live events across two app instances (needs TEST_DATABASE_URL: PGlite is one process)',
  );
}

const TEST_ENV = { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' };
const WAIT_MS = 5000;

interface SseEvent {
  event: string | undefined;
  id: string | undefined;
  retry: number | undefined;
  data: string | undefined;
  comments: string[];
}

/** Reads an SSE response body block by block, as EventSource would. */
class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private readonly queued: SseEvent[] = [];
  ended = false;

  constructor(readonly response: Response) {
    if (!response.body) throw new Error('no body');
    this.reader = response.body.getReader();
  }

  /** The next block (event, or retry/comment block); throws after `timeoutMs`. */
  async next(timeoutMs = WAIT_MS): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const queued = this.queued.shift();
      if (queued) return queued;
      if (this.ended) throw new Error('stream ended');
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no SSE event within ${timeoutMs} ms`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remaining);
      });
      const chunk = await Promise.race([this.pendingRead(), timeout]);
      clearTimeout(timer);
      if (chunk === 'timeout') throw new Error(`no SSE event within ${timeoutMs} ms`);
      this.readInFlight = undefined;
      if (chunk.done) {
        this.ended = true;
        continue;
      }
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
      this.parseBlocks();
    }
  }

  /** The next block with an `event:` field (skips retry hints and heartbeats). */
  async nextEvent(timeoutMs = WAIT_MS): Promise<SseEvent & { message: LiveEventMessage }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const block = await this.next(Math.max(1, deadline - Date.now()));
      if (block.event !== undefined)
        return { ...block, message: JSON.parse(block.data ?? 'null') as LiveEventMessage };
    }
  }

  /** Waits for the end of the stream (server closed it). */
  async waitForEnd(timeoutMs = WAIT_MS): Promise<void> {
    try {
      for (;;) await this.next(timeoutMs);
    } catch (err) {
      if (!(err instanceof Error) || err.message !== 'stream ended') throw err;
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private readInFlight: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  private pendingRead() {
    this.readInFlight ??= this.reader.read();
    return this.readInFlight;
  }

  private parseBlocks() {
    this.buffer = this.buffer.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const parsed: SseEvent = {
        event: undefined,
        id: undefined,
        retry: undefined,
        data: undefined,
        comments: [],
      };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          parsed.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') parsed.event = value;
        else if (field === 'id') parsed.id = value;
        else if (field === 'retry') parsed.retry = Number(value);
        else if (field === 'data')
          parsed.data = parsed.data === undefined ? value : `${parsed.data}\n${value}`;
      }
      this.queued.push(parsed);
    }
  }
}

async function subscribe(client: TestClient, topics: string): Promise<SseReader> {
  const res = await client.get(`/api/events?topics=${encodeURIComponent(topics)}`);
  expect(res.status, await peekError(res)).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = new SseReader(res);
  const first = await reader.next();
  expect(first.retry).toBe(LIVE_EVENTS_RETRY_MS);
  return reader;
}

async function peekError(res: Response): Promise<string> {
  return res.status === 200 ? '' : await res.clone().text();
}

let userCounter = 0;
async function signUp(t: TestApp): Promise<{ client: TestClient; user: SessionUser }> {
  const client = t.client();
  const email = `shopper${++userCounter}-${Date.now()}@example.com`;
  const res = await signUpAndIn(client, { email, password: 'correct-horse-1' });
  expect(res.status, await res.clone().text()).toBe(200);
  const { user } = (await res.json()) as { user: SessionUser };
  return { client, user };
}

async function signInAdmin(t: TestApp): Promise<TestClient> {
  const email = `admin${++userCounter}-${Date.now()}@example.com`;
  await t.deps.auth.createUser({ email, password: 'admin-password-1', role: 'admin' });
  const client = t.client();
  const res = await client.post('/api/auth/sign-in/email', { email, password: 'admin-password-1' });
  expect(res.status, await res.clone().text()).toBe(200);
  return client;
}

describe('live event topics (shared with the browser)', () => {
  it('parses topic lists and maps user topics to the user', () => {
    expect(parseTopicList(' catalog , orders:me,catalog')).toEqual({
      ok: true,
      topics: ['catalog', 'orders:me'],
    });
    expect(parseTopicList('catalog,nope')).toEqual({ ok: false, message: 'Unknown topic: nope' });
    expect(parseTopicList('')).toEqual({ ok: false, message: 'At least one topic is required' });
    expect(resolveTopic('orders:me', 'u1')).toBe('orders:u1');
    expect(resolveTopic('admin:orders', 'u1')).toBe('admin:orders');
    expect(isPublishableTopic('orders:u1')).toBe(true);
    expect(isPublishableTopic('orders:me')).toBe(false);
    expect(isPublishableTopic('tickets:a/b')).toBe(false);
    expect(isPublishableTopic('admin:audit')).toBe(true);
  });

  it('maps topics to query keys and backs off 1 s doubling to 30 s', () => {
    const keys = {
      catalog: [['products']],
      orders: [['orders']],
      tickets: [['tickets']],
      'admin:orders': [['admin', 'orders']],
    };
    expect(queryKeysForTopic(keys, 'catalog')).toEqual([['products']]);
    expect(queryKeysForTopic(keys, 'orders:me')).toEqual([['orders']]);
    expect(queryKeysForTopic(keys, 'tickets:abc')).toEqual([['tickets']]);
    expect(queryKeysForTopic(keys, 'admin:orders')).toEqual([['admin', 'orders']]);
    expect(queryKeysForTopic(keys, 'admin:audit')).toEqual([]);
    expect(queryKeysForTopic(keys, 'unknown')).toEqual([]);
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(reconnectDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});

describe.each(BACKENDS)('live events (%s)', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: TEST_ENV });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('delivers a published catalog event to an anonymous SSE client', async () => {
    const reader = await subscribe(t.client(), 'catalog');
    try {
      await t.deps.events.publish('catalog', { type: 'product.updated', data: { id: 'p1', stock: 3 } });
      const event = await reader.nextEvent();
      expect(event.event).toBe('product.updated');
      expect(event.id).toMatch(/^[a-z0-9]+-[0-9a-f]{12}$/);
      expect(event.message).toEqual({
        topic: 'catalog',
        type: 'product.updated',
        data: { id: 'p1', stock: 3 },
      });
    } finally {
      await reader.cancel();
    }
  });

  it('answers 400 naming an unknown topic, and for no topic at all', async () => {
    const res = await t.client().get('/api/events?topics=catalog,orders:everyone');
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { code: string; message: string; fields?: Record<string, string> };
    };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.message).toContain('orders:everyone');
    expect(body.error.fields?.topics).toContain('orders:everyone');

    const none = await t.client().get('/api/events');
    expect(none.status).toBe(400);
  });

  it('answers 401 to an anonymous client asking for orders:me or an admin topic', async () => {
    for (const topics of ['orders:me', 'catalog,tickets:me', 'admin:orders']) {
      const res = await t.client().get(`/api/events?topics=${topics}`);
      expect(res.status, topics).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers 403 to a customer asking for an admin topic, and streams admin topics to an admin', async () => {
    const { client } = await signUp(t);
    const res = await client.get('/api/events?topics=orders:me,admin:orders');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');

    const admin = await signInAdmin(t);
    const reader = await subscribe(admin, 'admin:orders,admin:audit');
    try {
      await t.deps.events.publish('admin:audit', {
        type: 'audit.logged',
        data: { action: 'product.update' },
      });
      const event = await reader.nextEvent();
      expect(event.message).toEqual({
        topic: 'admin:audit',
        type: 'audit.logged',
        data: { action: 'product.update' },
      });
    } finally {
      await reader.cancel();
    }
  });

  it("gives a customer their own order events, never another user's", async () => {
    const alice = await signUp(t);
    const bob = await signUp(t);
    const reader = await subscribe(alice.client, 'orders:me,tickets:me');
    try {
      await t.deps.events.publish(`orders:${bob.user.id}`, {
        type: 'order.created',
        data: { orderId: 'bob-order' },
      });
      await t.deps.events.publish(`orders:${alice.user.id}`, {
        type: 'order.created',
        data: { orderId: 'alice-order' },
      });
      await t.deps.events.publish(`tickets:${alice.user.id}`, {
        type: 'ticket.replied',
        data: { ticketId: 't1' },
      });
      const first = await reader.nextEvent();
      expect(first.message).toEqual({
        topic: 'orders:me',
        type: 'order.created',
        data: { orderId: 'alice-order' },
      });
      const second = await reader.nextEvent();
      expect(second.message).toEqual({
        topic: 'tickets:me',
        type: 'ticket.replied',
        data: { ticketId: 't1' },
      });
      await t.deps.events.publish(`tickets:${bob.user.id}`, {
        type: 'ticket.replied',
        data: { ticketId: 't2' },
      });
      // Events arrive in the order they were published: had Bob's come through, it would come
      // before this later one of Alice's.
      await t.deps.events.publish(`tickets:${alice.user.id}`, {
        type: 'ticket.replied',
        data: { ticketId: 't3' },
      });
      const third = await reader.nextEvent();
      expect(third.message).toEqual({
        topic: 'tickets:me',
        type: 'ticket.replied',
        data: { ticketId: 't3' },
      });
    } finally {
      await reader.cancel();
    }
  });

  it('drops the subscription when the client disconnects', async () => {
    const before = t.deps.events.subscriberCount;
    const reader = await subscribe(t.client(), 'catalog');
    expect(t.deps.events.subscriberCount).toBe(before + 1);
    await reader.cancel();
    await expect.poll(() => t.deps.events.subscriberCount, { timeout: WAIT_MS, interval: 10 }).toBe(before);
  });

  it('sends only the notice when the data is too large for NOTIFY', async () => {
    const reader = await subscribe(t.client(), 'catalog');
    try {
      const big = 'x'.repeat(MAX_NOTIFY_PAYLOAD_BYTES);
      await t.deps.events.publish('catalog', { type: 'product.updated', data: { description: big } });
      await t.deps.events.publish('catalog', { type: 'stock.changed', data: { amount: 10n ** 20n } });
      const event = await reader.nextEvent();
      expect(event.message).toEqual({ topic: 'catalog', type: 'product.updated' });
      const next = await reader.nextEvent();
      expect(next.message).toEqual({
        topic: 'catalog',
        type: 'stock.changed',
        data: { amount: '100000000000000000000' },
      });
    } finally {
      await reader.cancel();
    }
  });

  it('refuses to publish on a topic alias or with an unlisted event type', async () => {
    await expect(t.deps.events.publish('orders:me', { type: 'order.created' })).rejects.toThrow(
      /cannot publish/,
    );
    await expect(t.deps.events.publish('catalog', { type: 'product.renamed' })).rejects.toThrow(
      /LIVE_EVENT_TYPES/,
    );
  });
});

describe.each(BACKENDS)('live event stream limits (%s)', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      backend,
      env: {
        ...TEST_ENV,
        EVENTS_MAX_STREAMS: '5',
        EVENTS_MAX_STREAMS_PER_CLIENT: '2',
        EVENTS_MAX_STREAM_SECONDS: '2',
        EVENTS_HEARTBEAT_SECONDS: '0.2',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('caps streams per client (429) and in total (503), and frees a slot when a stream closes', async () => {
    const a1 = await subscribe(t.client({ ip: '198.51.100.1' }), 'catalog');
    const a2 = await subscribe(t.client({ ip: '198.51.100.1' }), 'catalog');
    const third = await t.client({ ip: '198.51.100.1' }).get('/api/events?topics=catalog');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');

    // Other clients still connect, up to the process's total.
    const others = [
      await subscribe(t.client({ ip: '198.51.100.2' }), 'catalog'),
      await subscribe(t.client({ ip: '198.51.100.3' }), 'catalog'),
      await subscribe(t.client({ ip: '198.51.100.4' }), 'catalog'),
    ];
    const full = await t.client({ ip: '198.51.100.5' }).get('/api/events?topics=catalog');
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
    // The health check still answers while every stream slot is taken.
    expect((await t.app.request('/api/health')).status).toBe(200);

    // A closed stream gives its slot back: the first client reconnects.
    await a1.cancel();
    const again = await vi.waitFor(
      async () => {
        const res = await t.client({ ip: '198.51.100.1' }).get('/api/events?topics=catalog');
        if (res.status === 200) return res;
        await res.body?.cancel();
        throw new Error(`the reconnect answered ${res.status}`);
      },
      { timeout: 2_000, interval: 20 },
    );
    const reader = new SseReader(again);
    for (const r of [a2, reader, ...others]) await r.cancel();
  });

  it('ends a stream at its maximum life with a retry hint, so the browser reconnects', async () => {
    // Timed from before the request: the server counts the stream's life from when it opened it.
    const started = Date.now();
    const reader = await subscribe(t.client({ ip: '198.51.100.20' }), 'catalog');
    const blocks: SseEvent[] = [];
    try {
      for (;;) blocks.push(await reader.next(5000));
    } catch (err) {
      expect((err as Error).message).toBe('stream ended');
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(blocks.some((b) => b.comments.includes('heartbeat'))).toBe(true);
    // The last block is the retry hint: no event, an empty data field (dispatches nothing).
    expect(blocks.at(-1)).toMatchObject({ event: undefined, data: '', retry: LIVE_EVENTS_RETRY_MS });
  });

  it("stops an admin's stream once that admin signs out, and keeps a signed-in admin's", async () => {
    const leaving = await signInAdmin(t);
    const staying = await signInAdmin(t);
    const gone = await subscribe(leaving, 'admin:audit');
    const kept = await subscribe(staying, 'admin:audit');
    try {
      expect((await leaving.post('/api/auth/sign-out')).status).toBe(200);
      await t.deps.events.publish('admin:audit', { type: 'audit.logged', data: { id: 'after-sign-out' } });
      const delivered = await kept.nextEvent();
      expect(delivered.message.data).toEqual({ id: 'after-sign-out' });
      // The signed-out admin's stream ends without the event.
      const seen: SseEvent[] = [];
      try {
        for (;;) seen.push(await gone.next(3000));
      } catch (err) {
        expect((err as Error).message).toBe('stream ended');
      }
      expect(seen.filter((b) => b.event !== undefined)).toEqual([]);
    } finally {
      await gone.cancel();
      await kept.cancel();
    }
  });
});

describe.each(BACKENDS)('live events shutdown (%s)', (backend) => {
  let t: TestApp;
  // Apps start in beforeAll: creating one logs about a missing dist/web when the SPA is not built.
  beforeAll(async () => {
    t = await startTestApp({ backend, env: TEST_ENV });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('close() ends every open stream and is idempotent', async () => {
    const reader = await subscribe(t.client(), 'catalog');
    await Promise.all([t.deps.events.close(), t.deps.events.close()]);
    await reader.waitForEnd();
    expect(t.deps.events.subscriberCount).toBe(0);
    const res = await t.client().get('/api/events?topics=catalog');
    expect(res.status).toBe(503);
    await t.deps.events.publish('catalog', { type: 'changed' }); // a no-op once closed
  });
});

describe('live events across instances (postgres)', () => {
  let scratch: ScratchDatabase | undefined;
  let a: TestApp | undefined;
  let b: TestApp | undefined;

  // Two app instances, each with its own pool, on one PostgreSQL database.
  beforeAll(async () => {
    if (!TEST_DATABASE_URL) return;
    scratch = await createScratchDatabase('postgres');
    a = await startTestApp({ backend: 'postgres', scratch, env: TEST_ENV });
    b = await startTestApp({ backend: 'postgres', scratch, env: TEST_ENV });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await scratch?.drop();
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'an event published through instance A reaches an SSE client of instance B',
    async () => {
      if (!a || !b) throw new Error('instances not started');
      expect(a.deps.database).not.toBe(b.deps.database);
      const reader = await subscribe(b.client(), 'catalog');
      try {
        await a.deps.events.publish('catalog', { type: 'product.created', data: { id: 'from-a' } });
        const event = await reader.nextEvent();
        expect(event.event).toBe('product.created');
        expect(event.message).toEqual({ topic: 'catalog', type: 'product.created', data: { id: 'from-a' } });
      } finally {
        await reader.cancel();
      }
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "a user's order event published through A reaches that user's stream on B",
    async () => {
      if (!a || !b) throw new Error('instances not started');
      const { client, user } = await signUp(b);
      const mine = await subscribe(client, 'orders:me');
      try {
        await a.deps.events.publish(`orders:${user.id}`, {
          type: 'order.updated',
          data: { status: 'shipped' },
        });
        expect((await mine.nextEvent()).message).toEqual({
          topic: 'orders:me',
          type: 'order.updated',
          data: { status: 'shipped' },
        });
      } finally {
        await mine.cancel();
      }
    },
  );
  it.skipIf(!TEST_DATABASE_URL)(
    'after a lost LISTEN connection, streams end (browsers refetch), the catalogue cache is cleared and events flow again',
    async () => {
      if (!a || !b) throw new Error('instances not started');
      const { db } = b.deps.database;
      const product = await db
        .insertInto('products')
        .values({
          title: 'Gap Test Legging',
          brand: 'Northline',
          price_cents: 4_000,
          images: ['products/test-800.webp'],
          quantity: 2,
          sizes: ['S'],
          colors: ['Black'],
          gender: 'womens',
          category: 'womens-leggings',
          shipping_weight: '0.5',
          updated_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const titleOnB = async () => {
        const res = await b!.client().get('/api/products'); // the cached list
        expect(res.status).toBe(200);
        const { products } = (await res.json()) as { products: Array<{ id: string; title: string }> };
        return products.find((p) => p.id === product.id)?.title;
      };
      expect(await titleOnB()).toBe('Gap Test Legging');
      // A change that sends no event (as one lost in the gap): the cached catalogue still shows the old title.
      await db
        .updateTable('products')
        .set({ title: 'Renamed In The Gap' })
        .where('id', '=', product.id)
        .execute();
      expect(await titleOnB()).toBe('Gap Test Legging');

      const stream = await subscribe(b.client(), 'catalog');
      const terminated = await a.deps.database.withRawConnection((exec) =>
        exec(
          `select pg_terminate_backend(pid) as ok from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN%'`,
        ),
      );
      expect(terminated.length).toBeGreaterThanOrEqual(2); // one LISTEN connection per instance

      await stream.waitForEnd(10_000);
      await expect
        .poll(titleOnB, {
          timeout: 10_000,
          interval: 100,
          message: 'the catalogue cache cleared after the gap',
        })
        .toBe('Renamed In The Gap');

      const again = await subscribe(b.client(), 'catalog');
      try {
        await a.deps.events.publish('catalog', { type: 'product.updated', data: { id: 'after-gap' } });
        expect((await again.nextEvent(10_000)).message).toMatchObject({ data: { id: 'after-gap' } });
      } finally {
        await again.cancel();
      }
    },
  );
});
