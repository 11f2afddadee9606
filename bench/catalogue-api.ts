// Catalogue API (issues 15 and 39): requests per second and p99 latency of the product list
// (`GET /api/products`, the storefront's first page as the browser asks for it) at 100 connections
// for 20 s (autocannon, loopback), read against a bare node:http server that answers the same
// bytes with the same headers, measured in the same run. The shop answers it as every request:
// through @hono/node-server and the Hono app, its route behind the whole middleware chain (request
// id, access log, security headers, client address, compression, CSRF, session, body limit).
// Targets (issue 39): the shop at >= 70 % of the bare server's requests/s, its p99 no more than
// 5 ms over the bare server's, no failed answer.
//
//   npm run bench -- catalogue              the built shop (as npm start) on the embedded database
//   npx tsx bench/catalogue-api.ts --duration 10 --connections 50   shorter or lighter
//
// Both servers run in child processes of their own, so the load generator does not share their
// event loop. The shop is the real server (the built bundle, as npm start runs it) on a fresh embedded database with
// the demo catalogue, its jobs and the local ledger running, logging at its default level to a
// file. Each server is warmed up (3 s of the same load), then both are measured in alternating
// 5 s slices (bare, shop, shop, bare, ...) adding up to 20 s each, so that what the rest of a
// shared machine does falls on both alike; every response's latency is kept, and p99 is taken
// over all of a server's slices.
//
//   --duration S  --connections N  --warmup S  --slice S  --revalidation-duration S
//   --server FILE  a server bundle to run instead of dist/server/main.js (esbuild's output of
//                  src/server/main.ts as build:server makes it; not rebuilt)
//
// Plain path (the targets): clients that send no If-None-Match, as autocannon does. Revalidation
// path (context): every request carries the list's ETag and is answered 304 without a body.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { figure, quantile, reportFigures, type Figure } from './support/figures';
import { ensureShopBuilt, SHOP_SERVER_ARGS } from './support/shop-process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIST_PATH = '/api/products';
/** What the storefront's api-client sends (src/web/lib/api-client.ts); a browser adds its encodings. */
const BROWSER_HEADERS = { accept: 'application/json' };

const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? Number(argv[at + 1]) : fallback;
};
const DURATION_S = option('duration', 20);
const CONNECTIONS = option('connections', 100);
const WARMUP_S = option('warmup', 3);
const REVALIDATION_S = option('revalidation-duration', 10);
/** Length of one slice of the alternating measurement. */
const SLICE_S = option('slice', 5);
/** A server bundle to run instead of the built dist/server/main.js (not rebuilt). */
const SERVER_AT = argv.indexOf('--server');
const SERVER_FILE = SERVER_AT >= 0 ? argv[SERVER_AT + 1] : undefined;
/** Targets of issue 39: requests/s against the bare server's, p99 over the bare server's. */
const MIN_SHARE_OF_BARE = 70;
const MAX_P99_OVER_BARE_MS = 5;

/** Headers a node:http server writes by itself, or that describe the transfer rather than the resource. */
const TRANSFER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Child {
  url: string;
  stop: () => Promise<void>;
  logs: () => string;
}

function waitForExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function startChild(
  args: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
  logFile: string,
): Promise<Child> {
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', out, out] });
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const logs = () => {
    try {
      return readFileSync(logFile, 'utf8').slice(-4000);
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await waitForExit(child, 10_000);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${args.join(' ')} exited during start-up (code ${child.exitCode}).\n${logs()}`);
    }
    try {
      const res = await fetch(url + readyPath, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${url}${readyPath} did not answer in time.\n${logs()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop, logs };
}

/** The shop as `npm start` runs it (the built bundle, built first when stale, or `--server`). */
async function startShop(dataDir: string): Promise<Child> {
  if (SERVER_FILE === undefined) ensureShopBuilt();
  const port = await freePort();
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
  });
  const args =
    SERVER_FILE === undefined ? SHOP_SERVER_ARGS : ['--enable-source-maps', path.resolve(SERVER_FILE)];
  return startChild(args, env, port, '/api/health', path.join(dataDir, 'shop.log'));
}

interface Captured {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** The response's bytes as they travel (node:http, no decoding: autocannon asks for no encoding either). */
async function capture(url: string): Promise<Captured> {
  const { status, headers, body } = await new Promise<Captured>((resolve, reject) => {
    get(url, { headers: BROWSER_HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
  if (status !== 200) throw new Error(`GET ${url}: ${status} ${body.toString('utf8').slice(0, 300)}`);
  return { status, headers: headers.filter(([name]) => !TRANSFER_HEADERS.has(name)), body };
}

/** A node:http server answering every request with the captured response (and 304 on its ETag). */
const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const spec = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const body = Buffer.from(spec.body, 'base64');
const headers = Object.fromEntries(spec.headers);
headers['content-length'] = String(body.length);
const etag = headers['etag'];
const notModified = Object.fromEntries(spec.headers.filter(([n]) => n !== 'content-type' && n !== 'content-encoding'));
http.createServer((req, res) => {
  if (etag && req.headers['if-none-match'] === etag) {
    res.writeHead(304, notModified);
    res.end();
    return;
  }
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1');
`;

async function startBare(dir: string, captured: Captured): Promise<Child> {
  const port = await freePort();
  const specFile = path.join(dir, 'bare.json');
  writeFileSync(
    specFile,
    JSON.stringify({ headers: captured.headers, body: captured.body.toString('base64') }),
  );
  return startChild(
    ['-e', BARE_SERVER, specFile, String(port)],
    {},
    port,
    LIST_PATH,
    path.join(dir, 'bare.log'),
  );
}

interface Load {
  rps: number;
  p99: number;
  p50: number;
  ok: number;
  notModified: number;
  /** Responses other than the expected status, and connection errors and timeouts. */
  failures: number;
}

interface Tally {
  latencies: number[];
  seconds: number;
  ok: number;
  notModified: number;
  failures: number;
}

/** One autocannon run; every response's latency is kept, so runs add up to exact percentiles. */
function run(url: string, seconds: number, headers: Record<string, string>, expect: 200 | 304, tally: Tally) {
  return new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers },
      (err, result) => {
        if (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        tally.seconds += result.duration;
        tally.failures += result.errors + result.timeouts;
        resolve();
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      tally.latencies.push(ms);
      if (status === 200) tally.ok++;
      else if (status === 304) tally.notModified++;
      if (status !== expect) tally.failures++;
    });
  });
}

const newTally = (): Tally => ({ latencies: [], seconds: 0, ok: 0, notModified: 0, failures: 0 });

function summary(tally: Tally): Load {
  const sorted = Float64Array.from(tally.latencies).sort();
  return {
    rps: tally.latencies.length / tally.seconds,
    p50: quantile(Array.from(sorted), 0.5),
    p99: quantile(Array.from(sorted), 0.99),
    ok: tally.ok,
    notModified: tally.notModified,
    failures: tally.failures,
  };
}

/**
 * Both servers under the same load, in alternating slices (bare then shop, then shop then bare,
 * ...), `seconds` each in all: the shared machine's other work falls on both alike. Each is warmed
 * up first.
 */
async function measurePair(
  urls: { bare: string; shop: string },
  headers: Record<string, string>,
  expect: 200 | 304,
  seconds: number,
): Promise<{ bare: Load; shop: Load }> {
  for (const url of [urls.bare, urls.shop]) await run(url, WARMUP_S, headers, expect, newTally());
  const tallies = { bare: newTally(), shop: newTally() };
  const slices = Math.max(1, Math.round(seconds / SLICE_S));
  for (let i = 0; i < slices; i++) {
    const order: Array<'bare' | 'shop'> = i % 2 === 0 ? ['bare', 'shop'] : ['shop', 'bare'];
    for (const which of order) await run(urls[which], seconds / slices, headers, expect, tallies[which]);
  }
  return { bare: summary(tallies.bare), shop: summary(tallies.shop) };
}

function describe(label: string, l: Load): string {
  return `${label}: ${Math.round(l.rps)} req/s, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, ${l.ok} x 200, ${l.notModified} x 304, ${l.failures} failed`;
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-catalogue-api-'));
const children: Child[] = [];
try {
  console.log(`Starting the shop (demo catalogue, embedded database) in ${dir} ...`);
  const shop = await startShop(dir);
  children.push(shop);
  const listUrl = shop.url + LIST_PATH;
  const captured = await capture(listUrl);
  const products = (JSON.parse(captured.body.toString('utf8')) as { products: unknown[] }).products.length;
  console.log(
    `GET ${LIST_PATH}: ${captured.body.length} bytes, ${products} products; headers: ${captured.headers
      .map(([n]) => n)
      .join(', ')}`,
  );
  const bare = await startBare(dir, captured);
  children.push(bare);
  const bareCopy = await capture(bare.url + LIST_PATH);
  if (!bareCopy.body.equals(captured.body)) throw new Error('the bare server does not answer the same bytes');

  const urls = { bare: bare.url + LIST_PATH, shop: listUrl };
  console.log(
    `Plain path: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up each, then ${DURATION_S} s each in alternating ${SLICE_S} s slices`,
  );
  const plain = await measurePair(urls, BROWSER_HEADERS, 200, DURATION_S);
  const [bare200, shop200] = [plain.bare, plain.shop];
  console.log(`  ${describe('bare node:http', bare200)}`);
  console.log(`  ${describe('shop', shop200)}`);

  const p99Over = shop200.p99 - bare200.p99;
  console.log(
    `  shop at ${((100 * shop200.rps) / bare200.rps).toFixed(1)} % of bare's requests/s (target >= ${MIN_SHARE_OF_BARE} %), p99 ${p99Over >= 0 ? '+' : ''}${p99Over.toFixed(1)} ms over bare's (target <= +${MAX_P99_OVER_BARE_MS} ms)`,
  );
  const figures: Figure[] = [
    figure('catalogue API: shop requests/s', shop200.rps, 'req/s', { baseline: bare200.rps }),
    figure('catalogue API: shop as % of bare node:http', (100 * shop200.rps) / bare200.rps, '%', {
      baseline: 100,
      target: ['>=', MIN_SHARE_OF_BARE],
    }),
    figure('catalogue API: shop p99 latency', shop200.p99, 'ms', { baseline: bare200.p99 }),
    figure('catalogue API: shop p99 over bare node:http p99', p99Over, 'ms', {
      baseline: 0,
      target: ['<=', MAX_P99_OVER_BARE_MS],
    }),
    figure('catalogue API: failed or non-2xx responses', shop200.failures, 'responses', {
      baseline: bare200.failures,
      target: ['<=', 0],
    }),
  ];

  const etag = captured.headers.find(([name]) => name === 'etag')?.[1];
  if (etag) {
    console.log(`Revalidation path (If-None-Match: ${etag}): ${REVALIDATION_S} s each`);
    const revalidate = { ...BROWSER_HEADERS, 'if-none-match': etag };
    const revalidation = await measurePair(urls, revalidate, 304, REVALIDATION_S);
    const [bare304, shop304] = [revalidation.bare, revalidation.shop];
    console.log(`  ${describe('bare node:http', bare304)}`);
    console.log(`  ${describe('shop', shop304)}`);
    figures.push(
      figure('catalogue API: shop 304 revalidations/s', shop304.rps, 'req/s', { baseline: bare304.rps }),
      figure('catalogue API: shop 304 p99 latency', shop304.p99, 'ms', { baseline: bare304.p99 }),
      figure('catalogue API: failed revalidations (not 304)', shop304.failures, 'responses', {
        baseline: bare304.failures,
        target: ['<=', 0],
      }),
    );
  } else {
    console.log('The list has no ETag: no revalidation path to measure.');
  }
  reportFigures(figures);
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(dir, { recursive: true, force: true });
}
