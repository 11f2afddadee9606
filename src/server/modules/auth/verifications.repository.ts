import type { Db } from '#server/db/client';

/** One row of better-auth's `verifications` table, as the shop's own one-time codes use it. */
export interface VerificationRow {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Date;
  createdAt: Date;
}

/** Queries on `verifications` for the shop's own codes (better-auth keeps its tokens there too). */
export function createVerificationsRepository(db: Db) {
  return {
    /** Deletes every row of `identifier` and inserts `row`, in one transaction. */
    async replaceByIdentifier(row: VerificationRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('verifications').where('identifier', '=', row.identifier).execute();
        await trx
          .insertInto('verifications')
          .values({
            id: row.id,
            identifier: row.identifier,
            value: row.value,
            expires_at: row.expiresAt,
            created_at: row.createdAt,
            updated_at: row.createdAt,
          })
          .execute();
      });
    },

    /** The newest row of `identifier` that has not expired at `now`. */
    async findLiveByIdentifier(identifier: string, now: Date): Promise<{ id: string; value: string } | null> {
      const row = await db
        .selectFrom('verifications')
        .select(['id', 'value'])
        .where('identifier', '=', identifier)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return row ?? null;
    },

    /** Whether this call deleted the row (of two concurrent calls, only one does). */
    async deleteById(id: string): Promise<boolean> {
      const deleted = await db.deleteFrom('verifications').where('id', '=', id).executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1;
    },
  };
}
