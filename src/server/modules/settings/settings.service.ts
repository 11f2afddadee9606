import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { decryptSecret, encryptSecret, SecretBoxError } from '../../lib/secret-box';
import type { Logger } from '../../lib/logger';
import { createSettingsRepository } from './settings.repository';

/**
 * API keys: from the admin settings (table api_configurations, encrypted at rest with
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

export type SecretProvider = 'stripe';
export type StripeKeyName = 'secret_key' | 'webhook_secret' | 'publishable_key';

export interface SettingsService {
  getSecret(provider: SecretProvider, keyName: StripeKeyName): Promise<string | undefined>;
  /** Stores (or, with null, clears) a value; the admin settings screen writes through this. */
  setSecret(
    provider: SecretProvider,
    keyName: StripeKeyName,
    value: string | null,
    updatedBy?: string | null,
  ): Promise<void>;
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

  const fromEnv = (provider: SecretProvider, keyName: StripeKeyName): string | undefined => {
    if (provider !== 'stripe') return undefined;
    if (keyName === 'secret_key') return config.stripe.secretKey;
    if (keyName === 'webhook_secret') return config.stripe.webhookSecret;
    return undefined;
  };

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
      return fromEnv(provider, keyName);
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
