import { sql } from 'kysely';
import type { Db } from './client';

/**
 * Transaction-level advisory locks named by text keys (hashed to PostgreSQL's 64-bit lock space):
 * held until the caller's transaction ends. Keys are taken in sorted order, so two transactions
 * locking overlapping sets cannot deadlock each other. PGlite runs one transaction at a time, for
 * which the locks are free.
 */
export async function lockKeys(trx: Db, keys: readonly string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return;
  // One round trip: a VALUES list is scanned in its order, so the locks are taken in sorted order.
  const rows = sorted.map((key) => sql`(${key}::text)`);
  await sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from (values ${sql.join(rows)}) as t(k)`.execute(
    trx,
  );
}
