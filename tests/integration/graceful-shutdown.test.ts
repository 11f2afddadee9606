import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findFreePort, SERVER_ENTRY } from '../helpers/browser';
import {
  BACKENDS,
  createScratchDatabase,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import { copyPgliteTemplate } from '../helpers/pglite-template';
import { spawnShop, stopShopProcess, wait, type ShopProcess } from '../helpers/shop-process';

/**
 * SIGTERM to the built server (`node dist/server/main.js`, issue 41): the instance reports not
 * ready, refuses new connections, closes idle keep-alive connections, lets a request whose body is
 * still arriving finish with its full answer, and exits 0 within SHUTDOWN_TIMEOUT_MS. Raw sockets,
 * so that the test controls when each byte of a request goes out.
 */

const BOUND_MS = 8_000;

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Parses one HTTP/1.1 response (Content-Length or chunked). */
function parseResponse(raw: string): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  let rest = raw.slice(end + 4);
  let body = '';
  if (headers.get('transfer-encoding') === 'chunked') {
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) return undefined;
      const size = parseInt(rest.slice(0, lineEnd), 16);
      if (size === 0) break;
      if (rest.length < lineEnd + 2 + size) return undefined;
      body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
  } else {
    const length = Number(headers.get('content-length') ?? 0);
    if (rest.length < length) return undefined;
    body = rest.slice(0, length);
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/** A client connection that collects what the server sends, and notes when the server closes it. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return {
    socket,
    closed,
    connected: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
    response: () =>
      vi.waitFor(
        () => {
          const response = parseResponse(received);
          if (!response) throw new Error(`no whole response yet: ${JSON.stringify(received)}`);
          return response;
        },
        { timeout: 10_000, interval: 100 },
      ),
    reset: () => (received = ''),
  };
}

/** Whether a new TCP connection to the port is accepted or refused. */
function tryConnect(port: number): Promise<'accepted' | 'refused'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', () => resolve('refused'));
  });
}

describe.each(BACKENDS)('graceful shutdown of the built server (%s)', (backend) => {
  let shop: ShopProcess | undefined;
  let scratch: ScratchDatabase | undefined;
  let dataDir: string | undefined;

  afterEach(async () => {
    if (shop) await stopShopProcess(shop);
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('drains on SIGTERM: in-flight request answered, not ready, new connections refused, exit 0 in time', async () => {
    warnIfPostgresSkipped();
    dataDir = mkdtempSync(path.join(tmpdir(), 'shop-shutdown-'));
    scratch = backend === 'postgres' ? await createScratchDatabase('postgres') : undefined;
    if (!scratch) copyPgliteTemplate(path.join(dataDir, 'pglite'));
    const port = await findFreePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    shop = await spawnShop({
      entry: SERVER_ENTRY,
      baseUrl,
      env: {
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        LOCAL_LEDGER: 'off',
        SHUTDOWN_TIMEOUT_MS: String(BOUND_MS),
        ...(scratch?.url ? { DATABASE_URL: scratch.url } : {}),
      },
    });

    // A keep-alive connection left idle after its answer.
    const idle = connect(port);
    await idle.connected;
    idle.socket.write('GET /api/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect((await idle.response()).status).toBe(200);
    // A guest's message whose body is still on its way.
    const body = JSON.stringify({
      name: 'Drain Tester',
      email: 'drain@example.com',
      message: 'Sent while the shop shuts down: it must still arrive.',
    });
    const post = connect(port);
    await post.connected;
    post.socket.write(
      [
        'POST /api/contact HTTP/1.1',
        'Host: 127.0.0.1',
        `Origin: ${baseUrl}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body.slice(0, 20),
      ].join('\r\n'),
    );
    // A readiness probe whose request is not complete yet (its connection is not idle).
    const probe = connect(port);
    await probe.connected;
    probe.socket.write('GET /api/health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // Nothing tells a client that the server has read these partial requests: time for them to
    // arrive, so both connections are busy (not idle) when SIGTERM comes.
    await wait(300);

    const signalledAt = Date.now();
    shop.child.kill('SIGTERM');
    await expect
      .poll(() => tryConnect(port), { timeout: 5_000, interval: 100, message: 'new connections refused' })
      .toBe('refused');
    // Refused while the process still serves the request in flight.
    expect(shop.child.exitCode).toBeNull();
    await Promise.race([
      idle.closed,
      wait(3_000).then(() => Promise.reject(new Error('idle connection kept'))),
    ]);

    probe.socket.write('\r\n');
    const ready = await probe.response();
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'not-ready', reason: 'shutting-down' });
    expect(ready.headers.get('connection')).toBe('close');

    // The rest of the body comes a while into the drain, as a slow client's would (a delay the
    // scenario needs, not a wait for something).
    await wait(300);
    post.socket.write(body.slice(20));
    const answer = await post.response();
    expect(answer.status, answer.body).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ id: expect.any(String) });

    const exit = await Promise.race([shop.exit, wait(BOUND_MS + 2_000).then(() => 'still running')]);
    expect(exit, shop.logs().slice(-2000)).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(BOUND_MS);
    expect(shop.logs()).not.toMatch(/error during shutdown|did not finish within/);
  });
});
