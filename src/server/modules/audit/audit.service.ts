import {
  AUDIT_ACTIONS,
  type AuditActionList,
  type AuditEntry,
  type AuditEntryPage,
  type AuditQuery,
} from '#common/schemas/admin-audit';
import type { Db } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import type { EventHub } from '../events/event-hub';
import { createAuditRepository } from './audit.repository';
import { pageWindow, toPage } from '#server/lib/pagination';

/**
 * The admin audit log. Every admin write records one entry with the acting admin, preferably in
 * the same transaction as the change (so a change and its entry commit together). As the spec
 * says, failing to write an entry is only logged: inside a transaction the insert runs under a
 * savepoint, so a failed audit insert does not undo the change it describes.
 *
 * Rows are never changed or deleted: no route does it, and a database trigger refuses it.
 */

/** The admin performing an action; stored as `details.admin` and `actor_id`. */
export interface AdminActor {
  id: string;
  email: string;
}

export interface AuditInput {
  action: (typeof AUDIT_ACTIONS)[number];
  details: Record<string, unknown>;
  /** The admin who did it; null for the shop's own scheduled work (the airdrop scheduler). */
  actor: AdminActor | null;
}

let savepointCounter = 0;

/**
 * Writes one entry on `db` (the caller's transaction, or the database). Returns the entry, or
 * null when it could not be written (logged). Publish it after commit with `announceAudit`.
 */
export async function recordAudit(db: Db, input: AuditInput, logger: Logger): Promise<AuditEntry | null> {
  const repo = createAuditRepository(db);
  const row = {
    action: input.action,
    details: {
      ...input.details,
      ...(input.actor
        ? { admin: { id: input.actor.id, email: input.actor.email } }
        : { trigger: 'schedule' }),
    },
    actorId: input.actor?.id ?? null,
  };
  if (!db.isTransaction) {
    try {
      return await repo.insert(row);
    } catch (err) {
      logger.error({ err, action: input.action }, 'audit entry not written');
      return null;
    }
  }
  const savepoint = `audit_entry_${++savepointCounter}`;
  await repo.savepoint(savepoint);
  try {
    const entry = await repo.insert(row);
    await repo.releaseSavepoint(savepoint);
    return entry;
  } catch (err) {
    logger.error({ err, action: input.action }, 'audit entry not written');
    await repo.rollbackToSavepoint(savepoint);
    return null;
  }
}

/** Tells open audit panels about a committed entry (they prepend it). */
export async function announceAudit(events: EventHub, entry: AuditEntry | null): Promise<void> {
  if (entry) await events.publish('admin:audit', { type: 'audit.logged', data: entry });
}

export interface AuditService {
  list(query: AuditQuery): Promise<AuditEntryPage>;
  newest(limit: number): Promise<AuditEntry[]>;
  /** The known actions and any other found in the log, sorted. */
  actions(): Promise<AuditActionList>;
  /** recordAudit on the database (outside any transaction) + announceAudit. */
  recordAndAnnounce(input: AuditInput): Promise<AuditEntry | null>;
}

export function createAuditService(deps: { db: Db; events: EventHub; logger: Logger }): AuditService {
  const repo = createAuditRepository(deps.db);
  return {
    async list(query) {
      const { rows, total } = await repo.findPage({
        search: query.search,
        action: query.action,
        ...pageWindow(query),
      });
      return toPage(rows, query, total);
    },
    newest(limit) {
      return repo.findNewest(limit);
    },
    async actions() {
      const found = await repo.findDistinctActions();
      return { actions: [...new Set<string>([...AUDIT_ACTIONS, ...found])].sort() };
    },
    async recordAndAnnounce(input) {
      const entry = await recordAudit(deps.db, input, deps.logger);
      await announceAudit(deps.events, entry);
      return entry;
    },
  };
}
