import type { Database } from './client';

/** Arbitrary but fixed advisory-lock keys, one per thing that must run on one instance at a time. */
export const ADVISORY_LOCK_KEYS = {
  adminBootstrap: 7_305_215_992,
  airdrops: 7_305_215_993,
} as const;

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
  return database.withRawConnection(async (exec) => {
    await exec('select pg_advisory_lock($1)', [key]);
    try {
      return await fn();
    } finally {
      await exec('select pg_advisory_unlock($1)', [key]);
    }
  });
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
