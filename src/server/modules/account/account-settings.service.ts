import {
  NOTIFICATION_DEFAULTS,
  type ProfileSettings,
  type ProfileSettingsValues,
} from '#common/schemas/account-settings';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import { createAccountSettingsRepository } from './account-settings.repository';

/**
 * A signed-in customer's profile settings: read (the spec's notification defaults until the first
 * save) and saved, only ever for the caller's own user id. The email is the account's, read-only.
 */
export function createAccountSettingsService(deps: { db: Db }) {
  const repo = createAccountSettingsRepository(deps.db);

  async function get(userId: string): Promise<ProfileSettings> {
    const row = await repo.find(userId);
    if (!row) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
    return {
      email: row.email,
      firstName: row.first_name ?? '',
      lastName: row.last_name ?? '',
      phone: row.phone ?? '',
      address: row.address ?? '',
      city: row.city ?? '',
      state: row.state ?? '',
      zipCode: row.zip_code ?? '',
      country: row.country ?? '',
      notifications: {
        email: row.notify_email ?? NOTIFICATION_DEFAULTS.email,
        sms: row.notify_sms ?? NOTIFICATION_DEFAULTS.sms,
        marketing: row.notify_marketing ?? NOTIFICATION_DEFAULTS.marketing,
      },
      updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : null,
    };
  }

  return {
    get,
    async save(userId: string, values: ProfileSettingsValues): Promise<ProfileSettings> {
      await repo.upsert(userId, values, new Date());
      return get(userId);
    },
  };
}

export type AccountSettingsService = ReturnType<typeof createAccountSettingsService>;
