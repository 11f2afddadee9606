import { sql } from 'kysely';
import type { Database, Tx, RawExec } from './client';

/**
 * The shop's PostgreSQL advisory locks, in one place: session locks by fixed key for what runs on
 * one instance at a time (migrations, the admin bootstrap, airdrops, the demo seed), and
 * transaction locks by text key (lockKeys) for rows a transaction must take in a stable order.
 */

/** Arbitrary but fixed advisory-lock keys, one per thing that must run on one instance at a time. */
export const ADVISORY_LOCK_KEYS = {
  migrations: 7_305_215_991,
  adminBootstrap: 7_305_215_992,
  airdrops: 7_305_215_993,
  demoSeed: 7_305_216_101,
} as const;

/**
 * Runs fn on `exec`'s connection while it holds the session-level advisory lock `key` (waiting for
 * it), and lets go however fn ends.
 */
export async function holdingSessionLock<T>(exec: RawExec, key: number, fn: () => Promise<T>): Promise<T> {
  await exec('select pg_advisory_lock($1)', [key]);
  try {
    return await fn();
  } finally {
    await exec('select pg_advisory_unlock($1)', [key]);
  }
}

const inProcessQueues = new WeakMap<Database, Promise<unknown>>();
const inProcessHeld = new WeakMap<Database, Set<number>>();

/**
 * Runs fn while holding a PostgreSQL session-level advisory lock, so that several instances
 * starting together run it one after the other. The lock lives on a dedicated connection while fn
 * uses the pool. PGlite is one connection owned by one process: an in-process queue does the job
 * (holding its only connection for the lock would starve fn).
 */
export async function withAdvisoryLock<T>(database: Database, key: number, fn: () => Promise<T>): Promise<T> {
  if (database.backend === 'pglite') {
    const previous = inProcessQueues.get(database) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(fn);
    inProcessQueues.set(database, run);
    return run;
  }
  return database.withRawConnection((exec) => holdingSessionLock(exec, key, fn));
}

/**
 * Runs fn only if nobody holds the lock (no waiting): `{ ran: false }` when another instance (or
 * another caller in this process) has it. Same connection rules as withAdvisoryLock.
 */
export async function tryWithAdvisoryLock<T>(
  database: Database,
  key: number,
  fn: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  if (database.backend === 'pglite') {
    const held = inProcessHeld.get(database) ?? new Set<number>();
    inProcessHeld.set(database, held);
    if (held.has(key)) return { ran: false };
    held.add(key);
    try {
      return { ran: true, value: await fn() };
    } finally {
      held.delete(key);
    }
  }
  return database.withRawConnection(async (exec) => {
    const [row] = await exec('select pg_try_advisory_lock($1) as locked', [key]);
    if (row?.locked !== true) return { ran: false } as const;
    try {
      return { ran: true, value: await fn() } as const;
    } finally {
      await exec('select pg_advisory_unlock($1)', [key]);
    }
  });
}

/**
 * Transaction-level advisory locks named by text keys (hashed to PostgreSQL's 64-bit lock space):
 * held until the caller's transaction ends. Keys are taken in sorted order, so two transactions
 * locking overlapping sets cannot deadlock each other. PGlite runs one transaction at a time, for
 * which the locks are free.
 */
export async function lockKeys(trx: Tx, keys: readonly string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return;
  // One round trip: a VALUES list is scanned in its order, so the locks are taken in sorted order.
  const rows = sorted.map((key) => sql`(${key}::text)`);
  await sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from (values ${sql.join(rows)}) as t(k)`.execute(
    trx,
  );
}
