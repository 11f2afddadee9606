import type { SETTING_KEYS } from '../../../common/schemas/admin';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { decryptSecret, encryptSecret, SecretBoxError } from '../../lib/secret-box';
import type { Logger } from '../../lib/logger';
import { createSettingsRepository } from './settings.repository';

/**
 * API keys and service URLs (SETTING_KEYS): from the admin settings (table api_configurations, encrypted at rest with
 * lib/secret-box.ts under ENCRYPTION_KEY) or from the environment.
 *
 * Precedence: a value stored in the admin settings wins; the environment is the fallback. The
 * settings screen is how an operator changes keys on a running shop (every instance reads the
 * same row, no restart), while the environment seeds a deployment. A stored value that does not
 * decrypt (ENCRYPTION_KEY changed) is logged and treated as unset.
 *
 * Values are read on every call (one indexed row): a key changed in the settings takes effect on
 * the next checkout on every instance.
 */

type KnownSetting = (typeof SETTING_KEYS)[number];
export type SecretProvider = KnownSetting['provider'];
/** The key names that exist for a provider (stripe: secret_key, publishable_key, webhook_secret, …). */
export type SettingKeyName<P extends SecretProvider> = Extract<KnownSetting, { provider: P }>['keyName'];

export interface SettingsService {
  getSecret<P extends SecretProvider>(provider: P, keyName: SettingKeyName<P>): Promise<string | undefined>;
  /** Stores (or, with null, clears) a value; the admin settings screen writes through this. */
  setSecret<P extends SecretProvider>(
    provider: P,
    keyName: SettingKeyName<P>,
    value: string | null,
    updatedBy?: string | null,
  ): Promise<void>;
}

/** The value a setting takes from the server's environment when the admin settings hold none. */
export function environmentValue(config: Config, provider: string, keyName: string): string | undefined {
  const key = `${provider}/${keyName}`;
  if (key === 'stripe/secret_key') return config.stripe.secretKey;
  if (key === 'stripe/webhook_secret') return config.stripe.webhookSecret;
  if (key === 'market/price_url') return config.market.priceUrl;
  if (key === 'market/dex_url') return config.market.dexUrl;
  return undefined;
}

/** The context bound into each stored value (see secret-box.ts). */
export function secretContext(provider: string, keyName: string): string {
  return `${provider}/${keyName}`;
}

export function createSettingsService({
  config,
  database,
  logger,
}: {
  config: Config;
  database: Database;
  logger: Logger;
}): SettingsService {
  const repo = createSettingsRepository(database.db);
  const log = logger.child({ module: 'settings' });

  return {
    async getSecret(provider, keyName) {
      const encrypted = await repo.findEncryptedValue(provider, keyName);
      if (encrypted) {
        try {
          const value = decryptSecret(config.encryptionKey, encrypted, secretContext(provider, keyName));
          if (value.trim() !== '') return value.trim();
        } catch (err) {
          if (!(err instanceof SecretBoxError)) throw err;
          log.warn(
            { provider, keyName },
            'stored API key does not decrypt (ENCRYPTION_KEY changed?); ignoring it',
          );
        }
      }
      return environmentValue(config, provider, keyName);
    },

    async setSecret(provider, keyName, value, updatedBy = null) {
      const trimmed = value?.trim() ?? '';
      const encrypted =
        trimmed === ''
          ? null
          : encryptSecret(config.encryptionKey, trimmed, secretContext(provider, keyName));
      await repo.upsertEncryptedValue(provider, keyName, encrypted, updatedBy);
    },
  };
}
