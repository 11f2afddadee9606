import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Logger } from '../lib/logger';
import { isDatabaseUnavailable, QUERY_READ_TIMEOUT } from './errors';
import { PGliteDialect } from './pglite-dialect';
import type { DB } from './schema';

export type Db = Kysely<DB>;

/**
 * A Db inside a transaction (`db.transaction().execute(trx => ...)`). A helper whose first
 * parameter is a Tx is transaction-scoped: it relies on locks taken, or writes that must commit or
 * roll back, with the caller's other steps; it cannot be handed a plain Db by mistake.
 */
export type Tx = Transaction<DB>;

export type NotificationHandler = (payload: string) => void;

/** The one way into the database: a Kysely instance plus LISTEN/NOTIFY on either backend. */
export interface Database {
  db: Db;
  backend: 'pglite' | 'postgres';
  /**
   * Subscribe to a NOTIFY channel; returns the unsubscribe function. `onGap` runs when
   * notifications may have been missed: the LISTEN connection was lost and is back (PostgreSQL
   * restart, network cut). PGlite runs in process and never has a gap.
   */
  listen(channel: string, handler: NotificationHandler, onGap?: () => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  ping(): Promise<boolean>;
  /**
   * Runs fn on one dedicated connection; `exec` accepts multi-statement SQL scripts (migrations).
   * Its queries have the query timeout unless `untimed` (migrations, which may wait for another
   * instance's and may build an index on a large table).
   */
  withRawConnection<T>(fn: (exec: RawExec) => Promise<T>, options?: { untimed?: boolean }): Promise<T>;
  /** PostgreSQL's pool now (/metrics); PGlite is one in-process connection and has none. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

/** Clients of the pool: open ones, idle ones among them, and queries waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export type RawExec = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export interface OpenDatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite data directory; `memory://` for an in-memory database (tests). */
  pgliteDir: string;
  logger: Logger;
  poolSize?: number;
  /**
   * PostgreSQL only: how long opening a connection (or waiting for a free one in the pool) may
   * take, and how long a query may wait for its answer, before it fails as "database unavailable"
   * (db/errors.ts) instead of holding its request until the operating system gives up on the socket.
   */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  /**
   * An open PGlite to use instead of opening one (tests hand one in-memory database to one test
   * after another): close() then leaves it open, with this Database's LISTENs removed.
   */
  pglite?: PGlite;
}

// int8 (count(*), bigserial) as string would surprise callers: parse to number where safe.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : wrapPglite(options.pglite ?? (await openPglite(options.pgliteDir)), {
        owned: !options.pglite,
      });
}

async function openPglite(dir: string): Promise<PGlite> {
  const isMemory = dir.startsWith('memory://');
  if (!isMemory) mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  // Only a new database needs pgcrypto: migration 0001 creates the extension and 0019 drops it.
  // Loading its code costs about a third of an open, so a migrated database starts without it.
  const isNew = isMemory || !existsSync(path.join(dir, 'PG_VERSION'));
  if (!isNew) return PGlite.create(dir);
  const { pgcrypto } = await import('@electric-sql/pglite/contrib/pgcrypto');
  return PGlite.create(isMemory ? undefined : dir, { extensions: { pgcrypto } });
}

function wrapPglite(pglite: PGlite, { owned }: { owned: boolean }): Database {
  let closed = false;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite, () => closed) });
  const subscriptions = new Set<() => Promise<void>>();
  return {
    db,
    backend: 'pglite',
    async listen(channel, handler) {
      const unsubscribe = await pglite.listen(channel, handler);
      // Once only: a PGlite handed on after close() may carry the next user's LISTEN on the channel.
      const stop = async () => {
        if (subscriptions.delete(stop)) await unsubscribe();
      };
      subscriptions.add(stop);
      return stop;
    },
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async ping() {
      await sql`select 1`.execute(db);
      return true;
    },
    async withRawConnection(fn) {
      // PGlite is one connection: borrow it through Kysely so nothing else interleaves.
      return db.connection().execute(async () =>
        fn(async (text, params) => {
          if (closed) throw new Error('The database was closed');
          if (params && params.length > 0)
            return (await pglite.query<Record<string, unknown>>(text, params)).rows;
          const results = await pglite.exec(text);
          return results.at(-1)?.rows ?? [];
        }),
      );
    },
    async close() {
      closed = true;
      await db.destroy();
      for (const stop of [...subscriptions]) await stop();
      if (owned) await pglite.close();
    },
  };
}

/** Defaults of OpenDatabaseOptions' timeouts. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const QUERY_TIMEOUT_MS = 30_000;
/** How often the LISTEN connection proves it is alive (a silent network drops no connection). */
const LISTEN_HEARTBEAT_MS = 5_000;
/** Longest wait between two attempts to bring the LISTEN connection back. */
const LISTEN_RECONNECT_MAX_MS = 2_000;

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const queryTimeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: queryTimeoutMs,
    keepAlive: true,
  });
  let closed = false;
  // A lost connection (PostgreSQL restarted or unreachable) is an outage the requests and jobs
  // report as they meet it (503, a warning); here it is only noted. Once closed, pool.end() has
  // asked its idle connections to end without waiting for them: a server that terminates one
  // meanwhile (a dropped database, a restart) is nothing to report.
  pool.on('error', (err) => {
    if (closed) return;
    if (isDatabaseUnavailable(err)) options.logger.warn({ err }, 'postgres connection lost');
    else options.logger.error({ err }, 'postgres pool error');
  });
  pool.on('connect', (client) => {
    // The pool listens for errors only on idle connections: one lost while a request holds it
    // (between two queries of a transaction) would emit 'error' to nobody and end the process.
    // Its queries fail with the error anyway, and pg-pool drops it when it is released.
    client.on('error', (err) => {
      if (!closed) options.logger.warn({ err }, 'postgres connection lost while in use');
    });
    // A query that timed out leaves its connection waiting for the answer: the next query on it
    // would wait behind it. Such a connection is closed, so that the pool replaces it.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((err: unknown) => {
          if (err instanceof Error && err.message === QUERY_READ_TIMEOUT) destroyConnection(client);
        });
      }
      return result;
    };
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

  // One dedicated connection carries every LISTEN of this process; reconnects with backoff.
  const handlers = new Map<string, Set<NotificationHandler>>();
  const gapHandlers = new Map<NotificationHandler, () => void>();
  let listener: pg.Client | undefined;
  let lost = false;
  let connecting: Promise<pg.Client> | undefined;
  let attempt = 0;

  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const connectListener = async (): Promise<pg.Client> => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectTimeoutMs,
      query_timeout: queryTimeoutMs,
      keepAlive: true,
    });
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      if (listener === client) {
        options.logger.warn({ err }, 'LISTEN connection lost; reconnecting');
        lost = true;
        listener = undefined;
        connecting = undefined;
        clearInterval(heartbeat);
        scheduleReconnect();
      }
      destroyConnection(client);
    };
    client.on('error', fail);
    try {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (err) {
      fail(err);
      throw err;
    }
    attempt = 0;
    listener = client;
    // A network that goes silent breaks no connection: the LISTEN connection would wait for
    // notifications forever. A query now and then proves it alive, or fails it (query timeout).
    clearInterval(heartbeat);
    heartbeat = setInterval(
      () => {
        if (listener === client) client.query('select 1').catch(fail);
      },
      Math.min(LISTEN_HEARTBEAT_MS, queryTimeoutMs),
    );
    heartbeat.unref();
    if (lost) {
      lost = false;
      options.logger.info('LISTEN connection restored; telling listeners that events may have been missed');
      for (const onGap of [...gapHandlers.values()]) {
        try {
          onGap();
        } catch (err) {
          options.logger.warn({ err }, 'LISTEN gap handler failed');
        }
      }
    }
    return client;
  };

  const scheduleReconnect = () => {
    if (closed || handlers.size === 0) return;
    const delay = Math.min(LISTEN_RECONNECT_MAX_MS, 250 * 2 ** attempt++);
    setTimeout(() => {
      if (closed || listener || connecting) return;
      connecting = connectListener().catch((err: unknown) => {
        options.logger.warn({ err: errorSummary(err) }, 'LISTEN reconnect failed');
        connecting = undefined;
        scheduleReconnect();
        throw err;
      });
      connecting.catch(() => undefined);
    }, delay).unref();
  };

  const getListener = async () => {
    if (listener) return listener;
    connecting ??= connectListener();
    try {
      return await connecting;
    } finally {
      connecting = undefined;
    }
  };

  return {
    db,
    backend: 'postgres',
    async listen(channel, handler, onGap) {
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(handler);
      if (onGap) gapHandlers.set(handler, onGap);
      const client = await getListener();
      if (isNew) await client.query(`LISTEN ${quoteIdent(channel)}`);
      return async () => {
        const current = handlers.get(channel);
        current?.delete(handler);
        gapHandlers.delete(handler);
        if (current && current.size === 0) {
          handlers.delete(channel);
          await listener?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
        }
      };
    },
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async ping() {
      await sql`select 1`.execute(db);
      return true;
    },
    async withRawConnection(fn, rawOptions = {}) {
      const client = await pool.connect();
      const timeout = rawOptions.untimed ? { query_timeout: MAX_TIMER_MS } : {};
      try {
        return await fn(
          async (text, params) =>
            (await client.query({ text, values: params, ...timeout })).rows as Array<Record<string, unknown>>,
        );
      } finally {
        client.release();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      closed = true;
      clearInterval(heartbeat);
      await listener?.end().catch(() => undefined);
      await db.destroy();
      // Kysely ends the pool only if a query went through it; a process that used only raw
      // connections (the migrations) would otherwise keep an idle connection for 10 s.
      if (!pool.ending) await pool.end();
    },
  };
}

/** setTimeout's longest delay (about 24.8 days): a query timeout that never comes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Closes a connection's socket at once (a polite end() would wait for the silent server). */
function destroyConnection(client: pg.Client | pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** A reconnect that fails every 2 s for a long outage: its message, not a stack every time. */
function errorSummary(err: unknown): unknown {
  return err instanceof Error ? { message: err.message, code: (err as { code?: unknown }).code } : err;
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`invalid channel name: ${name}`);
  return `"${name}"`;
}
