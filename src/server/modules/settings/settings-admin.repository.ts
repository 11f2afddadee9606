import type { Db } from '../../db/client';

/** api_configurations as the settings screen reads and writes them (values stay encrypted here). */
export interface StoredSettingRow {
  provider: string;
  keyName: string;
  encrypted: string | null;
  updatedAt: Date;
}

export function createSettingsAdminRepository(db: Db) {
  return {
    async findAll(): Promise<StoredSettingRow[]> {
      const rows = await db
        .selectFrom('api_configurations')
        .select(['provider', 'key_name', 'key_value_encrypted', 'updated_at'])
        .orderBy('provider')
        .orderBy('key_name')
        .execute();
      return rows.map((r) => ({
        provider: r.provider,
        keyName: r.key_name,
        encrypted: r.key_value_encrypted,
        updatedAt: new Date(r.updated_at),
      }));
    },

    async upsert(
      provider: string,
      keyName: string,
      encrypted: string,
      updatedBy: string,
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
        .returning(['provider', 'key_name', 'key_value_encrypted', 'updated_at'])
        .executeTakeFirstOrThrow();
      return {
        provider: row.provider,
        keyName: row.key_name,
        encrypted: row.key_value_encrypted,
        updatedAt: new Date(row.updated_at),
      };
    },
  };
}
