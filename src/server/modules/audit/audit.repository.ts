import { sql } from 'kysely';
import type { AuditEntry } from '#common/schemas/admin-audit';
import type { Db } from '#server/db/client';
import { likeContains } from '#server/db/sql-helpers';

/** admin_audit_log: insert and read only (a trigger refuses UPDATE and DELETE). */

export interface NewAuditRow {
  action: string;
  details: Record<string, unknown>;
  actorId: string | null;
}

interface AuditRow {
  id: string | number;
  action: string;
  details: Record<string, unknown>;
  actor_id: string | null;
  created_at: Date;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    action: row.action,
    details: row.details,
    actorId: row.actor_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export function createAuditRepository(db: Db) {
  return {
    async insert(row: NewAuditRow): Promise<AuditEntry> {
      const inserted = await db
        .insertInto('admin_audit_log')
        .values({
          action: row.action,
          details: JSON.stringify(row.details),
          actor_id: row.actorId,
          // The moment of writing, not the transaction's start: entries of changes that waited for a
          // row lock then sort in the order the changes were made.
          created_at: sql<Date>`clock_timestamp()`,
        })
        .returning(['id', 'action', 'details', 'actor_id', 'created_at'])
        .executeTakeFirstOrThrow();
      return toEntry(inserted);
    },

    /** Newest first; `search` matches the action or the details' JSON text, case-insensitive. */
    async findPage(filter: {
      search: string;
      action: string | undefined;
      limit: number;
      offset: number;
    }): Promise<{ rows: AuditEntry[]; total: number }> {
      let query = db.selectFrom('admin_audit_log');
      if (filter.action) query = query.where('action', '=', filter.action);
      if (filter.search) {
        const pattern = likeContains(filter.search);
        query = query.where((eb) =>
          eb.or([eb('action', 'ilike', pattern), eb(sql<string>`details::text`, 'ilike', pattern)]),
        );
      }
      const [rows, count] = await Promise.all([
        query
          .select(['id', 'action', 'details', 'actor_id', 'created_at'])
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toEntry), total: Number(count.count) };
    },

    async findNewest(limit: number): Promise<AuditEntry[]> {
      const rows = await db
        .selectFrom('admin_audit_log')
        .select(['id', 'action', 'details', 'actor_id', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toEntry);
    },

    async findDistinctActions(): Promise<string[]> {
      const rows = await db
        .selectFrom('admin_audit_log')
        .select('action')
        .distinct()
        .orderBy('action')
        .execute();
      return rows.map((r) => r.action);
    },

    /** Opens a savepoint in the caller's transaction (see recordAudit). */
    async savepoint(name: string): Promise<void> {
      await sql.raw(`savepoint ${name}`).execute(db);
    },
    async releaseSavepoint(name: string): Promise<void> {
      await sql.raw(`release savepoint ${name}`).execute(db);
    },
    async rollbackToSavepoint(name: string): Promise<void> {
      await sql.raw(`rollback to savepoint ${name}`).execute(db);
    },
  };
}
