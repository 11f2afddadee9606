import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { createApp } from '#server/app';
import { loadConfig } from '#server/config';
import { openDatabase, type Database } from '#server/db/client';
import { closeDeps, createDeps, type AppDeps } from '#server/deps';
import { createLogger, type Logger } from '#server/lib/logger';
import type { AppEnv } from '#server/lib/hono-env';
import { demoLedgerOptIn } from './demo-ledger';
import { createScratchDatabase, type Backend, type ScratchDatabase } from './databases';
import { LOCAL_CHAIN_TEST_LIMITS } from './local-chain-limits';
import { borrowPglite } from './pglite-pool';
import { serverErrorSink } from './server-errors';

export const TEST_ORIGIN = 'http://localhost:3000';

export interface TestApp {
  app: Hono<AppEnv>;
  deps: AppDeps;
  backend: Backend;
  dataDir: string;
  /**
   * A cookie-keeping client that sends the trusted Origin like a browser on the shop would.
   * `ip` is the socket peer address its requests come from (none by default, as app.request has).
   */
  client(options?: { ip?: string }): TestClient;
  close(): Promise<void>;
}

export interface StartTestAppOptions {
  backend: Backend;
  env?: Record<string, string>;
  /** Reuse a database (and its URL) opened elsewhere, e.g. two app instances on one PostgreSQL. */
  scratch?: ScratchDatabase;
  database?: Database;
}

export async function startTestApp(options: StartTestAppOptions): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-test-'));
  const scratch = options.scratch ?? (await createScratchDatabase(options.backend));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    ...(scratch.url ? { DATABASE_URL: scratch.url } : {}),
    ...demoLedgerOptIn(options.env),
    ...LOCAL_CHAIN_TEST_LIMITS,
    ...options.env,
  });
  // Errors are recorded (and fail the test unless it expects them); below that, nothing is logged.
  const logger =
    config.logLevel === 'silent' ? createLogger('error', serverErrorSink) : createLogger(config.logLevel);
  const database = options.database ?? (await openTestDatabase(scratch, { logger }));
  const deps = await createDeps(config, logger, { database });
  const app = createApp(deps);
  return {
    app,
    deps,
    backend: options.backend,
    dataDir,
    client: (clientOptions) => new TestClient(app, clientOptions?.ip),
    async close() {
      await closeDeps(deps, { keepDatabase: Boolean(options.database) });
      if (!options.scratch) await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a scratch database: the PostgreSQL one by its URL, or an in-memory PGlite as the migrated
 * template left it (tests/setup/global-setup.ts), handed on from an earlier test when one is free
 * (helpers/pglite-pool.ts).
 */
export async function openTestDatabase(
  scratch: ScratchDatabase,
  options: { logger?: Logger; poolSize?: number } = {},
): Promise<Database> {
  const lease = scratch.url ? undefined : await borrowPglite();
  const database = await openDatabase({
    databaseUrl: scratch.url,
    pgliteDir: 'memory://',
    logger: options.logger ?? createLogger('silent'),
    poolSize: options.poolSize ?? 5,
    ...(lease ? { pglite: lease.pglite } : {}),
  });
  if (!lease) return database;
  return {
    ...database,
    async close() {
      await database.close();
      await lease.giveBack();
    },
  };
}

export interface RequestOptions {
  headers?: Record<string, string>;
  json?: unknown;
  body?: BodyInit;
}

/** Minimal browser stand-in over app.request(): keeps cookies, sends Origin (and a JSON content type) on writes. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: Hono<AppEnv>,
    /** The socket peer address, as @hono/node-server passes it in its env bindings. */
    readonly ip?: string,
  ) {}

  async request(method: string, url: string, options: RequestOptions = {}): Promise<Response> {
    const headers = new Headers(options.headers);
    if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin')) headers.set('origin', TEST_ORIGIN);
    if (this.cookies.size > 0 && !headers.has('cookie')) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    let body = options.body;
    if (options.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(options.json);
    } else if (body === undefined && method !== 'GET' && method !== 'HEAD' && !headers.has('content-type')) {
      // As the web app's api-client does: a bodiless write still declares JSON (the CSRF rule).
      headers.set('content-type', 'application/json');
    }
    const env = this.ip ? { incoming: { socket: { remoteAddress: this.ip } } } : undefined;
    const res = await this.app.request(url, { method, headers, body }, env);
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get(url: string, options?: RequestOptions) {
    return this.request('GET', url, options);
  }
  post(url: string, json?: unknown, options: RequestOptions = {}) {
    return this.request('POST', url, { ...options, ...(json !== undefined ? { json } : {}) });
  }
  patch(url: string, json?: unknown, options: RequestOptions = {}) {
    return this.request('PATCH', url, { ...options, ...(json !== undefined ? { json } : {}) });
  }
  put(url: string, json?: unknown, options: RequestOptions = {}) {
    return this.request('PUT', url, { ...options, ...(json !== undefined ? { json } : {}) });
  }
  delete(url: string, options?: RequestOptions) {
    return this.request('DELETE', url, options);
  }
}
