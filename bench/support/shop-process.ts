/**
 * The shop as a real server process for the load benches (checkout, load held): a scratch
 * PostgreSQL database `shop_bench_<random>` on the server named by BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres; the server started as
 * `npm start` runs it (SHOP_SERVER_ARGS: the built bundle, built first when stale) on a free
 * loopback port with a temporary DATA_DIR, its log written to a file; stopped with SIGTERM and the
 * database dropped at the end.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { demoLedgerOptIn } from '../../tests/helpers/demo-ledger';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The server's node arguments, as scripts/start.mjs (`npm start`) runs it: the production bundle
 * with source maps on. Not the source through tsx: a development loader holds its transforms and
 * every module's source map in the server's memory (measured: 529 MiB at rest after the load-held
 * warm-up from source, 327 MiB from the bundle), which is not what a shop runs.
 */
export const SHOP_SERVER_ARGS = ['--enable-source-maps', path.join(ROOT, 'dist/server/main.js')];

/** The lock every build on this machine takes (`flock /tmp/shop-build.lock npm run build`). */
const BUILD_LOCK = '/tmp/shop-build.lock';

let built = false;
/** Builds the shop when any input is newer than the last build (scripts/ensure-build.mjs), once. */
export function ensureShopBuilt(): void {
  if (built) return;
  // Under the build lock every session shares (/tmp/shop-build.lock), so two benches or a bench
  // and a developer's build never write dist/ at once; without flock, as before.
  const script = path.join(ROOT, 'scripts/ensure-build.mjs');
  const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
  const res = hasFlock
    ? spawnSync('flock', [BUILD_LOCK, process.execPath, script], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync(process.execPath, [script], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('the shop could not be built (npm run build)');
  built = true;
}

export const PG_SERVER_URL =
  process.env.BENCH_DATABASE_URL?.trim() ||
  process.env.TEST_DATABASE_URL?.trim() ||
  'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new empty database on the PostgreSQL server; `drop()` removes it (connections closed by force). */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `shop_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_SERVER_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A free TCP port on loopback (closed again before it is handed out). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface ShopProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  dataDir: string;
  logFile: string;
  /** Resident set size of the server process, bytes (/proc/<pid>/status VmRSS). */
  rssBytes(): number;
  /** Log lines at level error or worse (pino level >= 50) written so far. */
  errorLogLines(): string[];
  stop(): Promise<void>;
}

/**
 * Starts the shop with `env` on top of a bench baseline (NODE_ENV=production, LOG_LEVEL=info as
 * production logs, a temporary DATA_DIR) and waits until GET /api/health answers 200.
 */
export async function startShopProcess(
  env: Record<string, string>,
  options: { nodeArgs?: string[] } = {},
): Promise<ShopProcess> {
  ensureShopBuilt();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-server-'));
  const logFile = path.join(dataDir, 'server.log');
  const url = `http://127.0.0.1:${port}`;
  // The log goes straight to a file (as under a service manager), not through a pipe this busy
  // process would have to drain: pino writes synchronously and would wait on a full pipe.
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...SHOP_SERVER_ARGS], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DEMO_PHOTO_CACHE_DIR: path.join(tmpdir(), 'shop-demo-photos'),
      // Crypto on the local demo ledger, as measured before it needed asking for beside DATABASE_URL.
      ...demoLedgerOptIn(env),
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let exited = null as string | null;
  child.once('exit', (code, signal) => {
    exited = `server exited (${code ?? signal})`;
  });

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`${exited}; log:\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `server did not answer /api/health within 120 s; log:\n${readFileSync(logFile, 'utf8')}`,
      );
    }
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid!,
    child,
    dataDir,
    logFile,
    rssBytes() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
      if (!kb) throw new Error('no VmRSS for the server process');
      return Number(kb) * 1024;
    },
    errorLogLines() {
      return readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => {
          if (!line.startsWith('{')) return /error/i.test(line);
          try {
            return Number((JSON.parse(line) as { level?: unknown }).level) >= 50;
          } catch {
            return true;
          }
        });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await gone;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The local ledger's public addresses, from a ledger host's start-up log line, and its treasury key,
 * from its key file: what another instance needs beside SOLANA_RPC_URL to take SOL on that ledger.
 */
export function localLedgerOf(host: ShopProcess): { mint: string; shopWallet: string; treasury: number[] } {
  const line = readFileSync(host.logFile, 'utf8')
    .split('\n')
    .find((l) => l.includes('"mint"') && l.includes('"shopWallet"'));
  if (!line) throw new Error('the ledger host did not log its local ledger');
  const { mint, shopWallet } = JSON.parse(line) as { mint: string; shopWallet: string };
  const keys = JSON.parse(readFileSync(path.join(host.dataDir, 'local-ledger', 'keys.json'), 'utf8')) as {
    treasury: number[];
  };
  return { mint, shopWallet, treasury: keys.treasury };
}
