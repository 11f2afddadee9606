import { Keypair, sendAndConfirmTransaction, type Connection, type Transaction } from '@solana/web3.js';
import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorBody } from '#common/errors';
import type { CheckoutResponse, PaymentStatusResponse } from '#common/schemas/checkout';
import { openDatabase, type Database } from '#server/db/client';
import { startAirdropScheduler } from '#server/jobs/airdrop-scheduler';
import { startMailSender } from '#server/jobs/mail-sender';
import { startReservationSweeper, type RunningJob } from '#server/jobs/reservation-sweeper';
import { createLogger } from '#server/lib/logger';
import { createProduct } from '../factories/product';
import {
  createScratchDatabase,
  TEST_DATABASE_URL,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import { serverErrorSink } from '../helpers/server-errors';
import { connect, startShop, stopShop, type RunningShop } from '../helpers/shop-server';
import { startTcpProxy, type CutMode, type TcpProxy } from '../helpers/tcp-proxy';
import { TEST_ORIGIN } from '../helpers/test-app';
import { SHIPPING_INFO } from '../factories/order';

/**
 * PostgreSQL taken away for 10 s under a running shop (a real port, its background jobs and its
 * LISTEN connection running), through a TCP proxy in front of the machine's PostgreSQL server:
 * refused (a stopped server) and silent (a network partition). Requests fail cleanly and fast
 * with 503 meanwhile, nothing crashes or logs an error, and the shop recovers by itself.
 */

warnIfPostgresSkipped();
if (!TEST_DATABASE_URL) {
  console.warn('SKIPPED: PostgreSQL outage faults (PostgreSQL only: set TEST_DATABASE_URL to run them)');
}

const OUTAGE_MS = 10_000;
/** The database client's limits in this test: a connection attempt, a query's answer. */
const CONNECT_TIMEOUT_MS = 1_500;
const QUERY_TIMEOUT_MS = 3_000;
/** Longest a request may take while the database is away. */
const FAIL_FAST_MS = QUERY_TIMEOUT_MS + CONNECT_TIMEOUT_MS + 1_000;
/** Longest the shop may take to serve everything again once the database is back. */
const RECOVERY_MS = 5_000;

const ENV = {
  CHECKOUT_RATE_LIMIT: '1000',
  CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
  CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '1000',
  SIGN_IN_RATE_LIMIT: '1000',
  // Every job ticks several times during an outage.
  PAYMENT_WATCH_INTERVAL_MS: '500',
  SWEEP_INTERVAL_SECONDS: '1',
  MAIL_SEND_INTERVAL_MS: '500',
  AIRDROP_SCHEDULER_INTERVAL_MS: '1000',
};

const CUSTOMER = { email: 'outage-customer@example.com', password: 'correct-horse-1' };
const ADMIN = { email: 'outage-admin@example.com', password: 'admin-password-1' };

interface Answer {
  status: number;
  ms: number;
  headers: Headers;
  text: string;
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL outage (postgres)', () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let database: Database;
  let shop: RunningShop;
  let connection: Connection;
  let shopper: Keypair;
  let adminCookie: string;
  let productId: string;
  const jobs: RunningJob[] = [];
  const processFaults: unknown[] = [];
  const onFault = (err: unknown) => processFaults.push(err);
  let variant = 0;

  async function request(
    method: string,
    path: string,
    options: { body?: unknown; cookie?: string; accept?: string } = {},
  ): Promise<Answer> {
    const started = performance.now();
    const res = await fetch(`${shop.url}${path}`, {
      method,
      headers: {
        ...(method === 'GET' ? {} : { origin: TEST_ORIGIN, 'content-type': 'application/json' }),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.accept ? { accept: options.accept } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      // A request that hangs is a failure of its own: far past the limit, not the test's timeout.
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, headers: res.headers, text };
  }

  /** The requests the outage must not break for long: reads, writes, an admin read, pages. */
  const probes: Record<string, () => Promise<Answer>> = {
    // A page size not asked before: the catalogue's in-memory cache cannot answer it.
    'product list': () => request('GET', `/api/products?limit=${(variant++ % 40) + 1}`),
    'product detail': () => request('GET', `/api/products/${productId}`),
    'sign-in': () => request('POST', '/api/auth/sign-in/email', { body: CUSTOMER }),
    'checkout creation': () =>
      request('POST', '/api/checkout', {
        body: {
          items: [{ productId, size: 'S', color: 'Black', quantity: 1 }],
          shippingInfo: SHIPPING_INFO,
          paymentMethod: 'sol',
        },
      }),
    'admin dashboard': () => request('GET', '/api/admin/dashboard', { cookie: adminCookie }),
    // Queries not asked before, as for the list: the page cache (pages/page-cache.ts) cannot answer.
    'landing page': () => request('GET', `/?probe=${variant++}`, { accept: 'text/html' }),
    'product page': () =>
      request('GET', `/products/${productId}?probe=${variant++}`, { accept: 'text/html' }),
  };
  const OK_STATUS: Record<string, number> = {
    'product list': 200,
    'product detail': 200,
    'sign-in': 200,
    'checkout creation': 201,
    'admin dashboard': 200,
    'landing page': 200,
    'product page': 200,
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onFault);
    process.on('uncaughtException', onFault);
    scratch = await createScratchDatabase('postgres');
    const upstream = new URL(scratch.url!);
    proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    const url = proxy.url(scratch.url!);
    database = await openDatabase({
      databaseUrl: url,
      pgliteDir: '',
      logger: createLogger('error', serverErrorSink),
      poolSize: 5,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
    });
    shop = await startShop({
      backend: 'postgres',
      scratch: { url, drop: async () => undefined },
      database,
      env: ENV,
    });
    const { deps } = shop.t;
    jobs.push(startReservationSweeper(deps), startMailSender(deps), startAirdropScheduler(deps));
    connection = connect(shop);
    const wallet = JSON.parse((await request('GET', '/api/chain/demo-wallet')).text) as {
      secretKey: number[];
    };
    shopper = Keypair.fromSecretKey(Uint8Array.from(wallet.secretKey));

    productId = (await createProduct(deps.database.db, { quantity: 1000, sizes: ['S'], colors: ['Black'] }))
      .id;
    await deps.auth.createUser({ ...CUSTOMER });
    await deps.auth.createUser({ ...ADMIN, role: 'admin' });
    const signIn = await fetch(`${shop.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(signIn.status).toBe(200);
    adminCookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    for (const [name, probe] of Object.entries(probes)) {
      expect((await probe()).status, name).toBe(OK_STATUS[name]);
    }
  }, 60_000);

  afterAll(async () => {
    for (const job of jobs) await job.stop();
    if (shop) await stopShop(shop);
    await database?.close();
    await proxy?.close();
    await scratch?.drop();
    process.off('unhandledRejection', onFault);
    process.off('uncaughtException', onFault);
  });

  async function expectCleanFailures(mode: CutMode) {
    const answers = await Promise.all(
      Object.entries(probes).map(async ([name, probe]) => [name, await probe()] as const),
    );
    for (const [name, answer] of answers) {
      const what = `${name} during a ${mode} outage: ${answer.status} in ${Math.round(answer.ms)} ms ${answer.text.slice(0, 200)}`;
      if (mode === 'silent' && name === 'landing page' && answer.status === 200) {
        // A silent database answers nothing, not an error: after its data budget the server sends
        // the page without its data, as for a slow database, and the browser asks for it again.
        expect(answer.ms, what).toBeLessThan(FAIL_FAST_MS);
        // The shop's page, its header and all, rendered by the server (its data left to the browser).
        expect(answer.text, what).toMatch(/^<!DOCTYPE html><html lang="en">[^]*<header/);
        continue;
      }
      expect(answer.status, what).toBe(503);
      expect(answer.ms, what).toBeLessThan(FAIL_FAST_MS);
      expect(Number(answer.headers.get('retry-after')), what).toBeGreaterThan(0);
      if (name.endsWith('page')) {
        expect(answer.headers.get('content-type'), what).toMatch(/^text\/html/);
      } else {
        const body = JSON.parse(answer.text) as ErrorBody;
        expect(body.error.code, what).toBe('SERVICE_UNAVAILABLE');
        expect(body.error.message, what).not.toMatch(/ECONN|terminated|timeout|pg|sql/i);
      }
    }
    const health = await request('GET', '/api/health');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text)).toMatchObject({ database: 'down' });
    expect(health.ms).toBeLessThan(FAIL_FAST_MS);
  }

  /** Polls every probe until each answers as before; returns how long that took. */
  async function waitForRecovery(): Promise<number> {
    const started = performance.now();
    const pending = new Set(Object.keys(probes));
    await vi.waitFor(
      async () => {
        const failing: string[] = [];
        for (const name of [...pending]) {
          const answer = await probes[name]!();
          if (answer.status === OK_STATUS[name]) pending.delete(name);
          else failing.push(`${name}: ${answer.status} ${answer.text.slice(0, 120)}`);
        }
        if (failing.length > 0)
          throw new Error(`not recovered within ${RECOVERY_MS} ms: ${failing.join('; ')}`);
      },
      { timeout: RECOVERY_MS, interval: 200 },
    );
    expect((await request('GET', '/api/health')).status).toBe(200);
    return performance.now() - started;
  }

  async function payCheckout() {
    const created = await probes['checkout creation']!();
    expect(created.status, created.text).toBe(201);
    const started = JSON.parse(created.text) as CheckoutResponse;
    const transfer = parseURL(started.crypto!.paymentUrl) as TransferRequestURL;
    const tx: Transaction = await createTransfer(connection, shopper.publicKey, {
      recipient: transfer.recipient,
      amount: transfer.amount!,
      reference: transfer.reference!,
    });
    await sendAndConfirmTransaction(connection, tx, [shopper], { commitment: 'confirmed' });
    await expect
      .poll(
        async () => {
          const res = await request('GET', `/api/payments/${started.reference}/status`);
          return JSON.parse(res.text) as PaymentStatusResponse;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toMatchObject({ status: 'completed' });
  }

  /** Opens an SSE stream on the catalogue topic; `read` gives its text as it comes. */
  async function openStream() {
    const res = await fetch(`${shop.url}/api/events?topics=catalog`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    return {
      /** The next text, '' on a timeout, null at the end of the stream. */
      async read(ms: number): Promise<string | null> {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), Math.max(1, ms)))),
        ]);
        clearTimeout(timer);
        if (chunk === 'timeout') return '';
        return chunk.done ? null : decoder.decode(chunk.value, { stream: true });
      },
      close: () => reader.cancel().catch(() => undefined),
    };
  }

  /**
   * An event published after the outage reaches an SSE client, as a browser's EventSource sees it:
   * a stream that ends (its LISTEN connection came back after it opened: events may have been
   * missed) is opened again.
   */
  async function expectLiveEvents() {
    const marker = `after-outage-${Date.now()}`;
    const deadline = Date.now() + RECOVERY_MS;
    // The LISTEN connection may still be on its way back: publish until an event arrives.
    const publisher = setInterval(() => {
      void shop.t.deps.events.publish('catalog', { type: 'product.updated', data: { id: marker } });
    }, 250);
    let text = '';
    try {
      while (!text.includes(marker)) {
        const stream = await openStream();
        try {
          for (;;) {
            if (Date.now() > deadline) throw new Error(`no live event within ${RECOVERY_MS} ms: ${text}`);
            const chunk = await stream.read(deadline - Date.now());
            if (chunk === null) break;
            text += chunk;
            if (text.includes(marker)) break;
          }
        } finally {
          await stream.close();
        }
      }
    } finally {
      clearInterval(publisher);
    }
  }

  async function outage(mode: CutMode) {
    await proxy.cut(mode);
    const cutAt = performance.now();
    try {
      // What the catalogue has cached it may serve on; the probes ask the database.
      shop.t.deps.catalog.invalidate();
      await expectCleanFailures(mode);
      // The jobs tick through the rest of the outage; then a second round of requests.
      await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS / 2 - (performance.now() - cutAt))));
      await expectCleanFailures(mode);
      await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (performance.now() - cutAt))));
    } finally {
      await proxy.restore();
    }
    const recoveredIn = await waitForRecovery();
    console.info(
      `${mode} outage of ${OUTAGE_MS} ms: every probe answered again ${Math.round(recoveredIn)} ms after`,
    );
    await expectLiveEvents();
    await payCheckout();
    expect(processFaults).toEqual([]);
  }

  it('PostgreSQL refusing connections for 10 s: 503s at once, then the shop recovers by itself', async () => {
    await outage('refuse');
  }, 60_000);

  it('PostgreSQL silent for 10 s (a network partition): 503s after the timeouts, then recovery', async () => {
    await outage('silent');
  }, 60_000);
});
