import type { Db } from '#server/db/client';

/** What readiness reads: the migrations recorded as applied. */
export function createHealthRepository(db: Db) {
  return {
    async findAppliedMigrationNames(): Promise<string[]> {
      const rows = await db.selectFrom('schema_migrations').select('name').execute();
      return rows.map((r) => r.name);
    },
  };
}
