import { sql, type RawBuilder } from 'kysely';
import type { Db } from './client';

/**
 * The chain watcher's lease, one rule for every table whose rows are looked for on the chain by
 * reference (crypto payments, Buy Token purchases): the oldest rows that are `eligible` and not
 * leased now are leased to the caller until `until` (FOR UPDATE SKIP LOCKED, so N instances share
 * the work and never look at one row together), and their references returned. `until` is an SQL
 * expression over the row, so a table can lease rows it expects news of soon for a short time and
 * others for longer.
 */
export interface LeaseRequest {
  table: 'payments' | 'token_purchases';
  /** Which rows are watched (a boolean SQL expression over the row). */
  eligible: RawBuilder<unknown>;
  /** Until when a leased row is left to the caller (a timestamptz SQL expression over the row). */
  until: RawBuilder<unknown>;
  now: Date;
  limit: number;
}

export async function leaseForWatch(db: Db, request: LeaseRequest): Promise<string[]> {
  const table = sql.table(request.table);
  const result = await sql<{ reference: string }>`
    update ${table} set watch_lease_until = ${request.until}
    where id in (
      select id from ${table}
      where (${request.eligible})
        and (watch_lease_until is null or watch_lease_until <= ${request.now})
      order by created_at
      limit ${request.limit}
      for update skip locked
    )
    returning reference
  `.execute(db);
  return result.rows.map((r) => r.reference);
}
