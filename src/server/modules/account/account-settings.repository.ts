import type { ProfileSettingsValues } from '#common/schemas/account-settings';
import type { Db } from '#server/db/client';

/** customer_settings: one row per customer, written on save (upsert). */
export function createAccountSettingsRepository(db: Db) {
  return {
    async find(userId: string) {
      return db
        .selectFrom('users as u')
        .leftJoin('customer_settings as s', 's.user_id', 'u.id')
        .select([
          'u.email',
          's.first_name',
          's.last_name',
          's.phone',
          's.address',
          's.city',
          's.state',
          's.zip_code',
          's.country',
          's.notify_email',
          's.notify_sms',
          's.notify_marketing',
          's.updated_at',
        ])
        .where('u.id', '=', userId)
        .executeTakeFirst();
    },

    async upsert(userId: string, v: ProfileSettingsValues, now: Date): Promise<void> {
      const row = {
        first_name: v.firstName,
        last_name: v.lastName,
        phone: v.phone,
        address: v.address,
        city: v.city,
        state: v.state,
        zip_code: v.zipCode,
        country: v.country,
        notify_email: v.notifications.email,
        notify_sms: v.notifications.sms,
        notify_marketing: v.notifications.marketing,
        updated_at: now,
      };
      await db
        .insertInto('customer_settings')
        .values({ user_id: userId, ...row })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
        .execute();
    },
  };
}
