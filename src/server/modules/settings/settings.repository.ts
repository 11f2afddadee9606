import type { Db } from '#server/db/client';

/** api_configurations: one encrypted value per (provider, key_name); values stay encrypted here. */
export interface StoredSettingRow {
  provider: string;
  keyName: string;
  encrypted: string | null;
  updatedAt: Date;
}

const COLUMNS = ['provider', 'key_name', 'key_value_encrypted', 'updated_at'] as const;

const toRow = (r: {
  provider: string;
  key_name: string;
  key_value_encrypted: string | null;
  updated_at: Date | string;
}): StoredSettingRow => ({
  provider: r.provider,
  keyName: r.key_name,
  encrypted: r.key_value_encrypted,
  updatedAt: new Date(r.updated_at),
});

export function createSettingsRepository(db: Db) {
  return {
    async findAll(): Promise<StoredSettingRow[]> {
      const rows = await db
        .selectFrom('api_configurations')
        .select(COLUMNS)
        .orderBy('provider')
        .orderBy('key_name')
        .execute();
      return rows.map(toRow);
    },

    /** Inserts or replaces the value (null clears it). */
    async upsert(
      provider: string,
      keyName: string,
      encrypted: string | null,
      updatedBy: string | null,
    ): Promise<StoredSettingRow> {
      const now = new Date();
      const row = await db
        .insertInto('api_configurations')
        .values({
          provider,
          key_name: keyName,
          key_value_encrypted: encrypted,
          updated_by: updatedBy,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['provider', 'key_name']).doUpdateSet({
            key_value_encrypted: encrypted,
            updated_by: updatedBy,
            updated_at: now,
          }),
        )
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toRow(row);
    },

    /** Deletes the stored value; false when nothing was stored (or only an empty value). */
    async remove(provider: string, keyName: string): Promise<boolean> {
      const rows = await db
        .deleteFrom('api_configurations')
        .where('provider', '=', provider)
        .where('key_name', '=', keyName)
        .returning('key_value_encrypted')
        .execute();
      return rows.some((r) => r.key_value_encrypted !== null);
    },
  };
}
