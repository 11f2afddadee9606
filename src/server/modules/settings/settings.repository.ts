import type { Db } from '../../db/client';

/** api_configurations: one encrypted value per (provider, key_name). */
export function createSettingsRepository(db: Db) {
  return {
    async findEncryptedValue(provider: string, keyName: string): Promise<string | null> {
      const row = await db
        .selectFrom('api_configurations')
        .select('key_value_encrypted')
        .where('provider', '=', provider)
        .where('key_name', '=', keyName)
        .executeTakeFirst();
      return row?.key_value_encrypted ?? null;
    },

    async upsertEncryptedValue(
      provider: string,
      keyName: string,
      encrypted: string | null,
      updatedBy: string | null,
    ): Promise<void> {
      const now = new Date();
      await db
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
        .execute();
    },
  };
}
