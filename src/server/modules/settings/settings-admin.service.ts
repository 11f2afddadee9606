import {
  SETTING_KEYS,
  type AdminSetting,
  type AdminSettingList,
  type SettingKey,
} from '../../../common/schemas/admin';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Logger } from '../../lib/logger';
import { decryptSecret, encryptSecret, SecretBoxError } from '../../lib/secret-box';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { EventHub } from '../events/event-hub';
import { createSettingsAdminRepository, type StoredSettingRow } from './settings-admin.repository';
import { environmentValue, secretContext } from './settings.service';

/**
 * The settings screen: a fixed catalogue of API configurations (SETTING_KEYS), each shown masked
 * with where its effective value comes from (these settings win over the environment, as
 * settings.service getSecret reads them). Updates are encrypted with lib/secret-box under
 * ENCRYPTION_KEY (context `<provider>/<key_name>`, the one getSecret decrypts with) and audited as
 * update_api_config with provider, key name, success and error. A value never leaves the server
 * in full.
 */
export interface SettingsAdminService {
  list(): Promise<AdminSettingList>;
  update(provider: string, keyName: string, value: string, actor: AdminActor): Promise<AdminSetting>;
}

/**
 * At most the last 4 characters, and only of values long enough (12+) that 4 characters reveal
 * little; shorter values show no characters at all.
 */
export function maskSettingValue(value: string): string {
  return value.length >= 12 ? `••••••••${value.slice(-4)}` : '••••••••';
}

function findKey(provider: string, keyName: string): SettingKey | undefined {
  return SETTING_KEYS.find((k) => k.provider === provider && k.keyName === keyName);
}

export function createSettingsAdminService(deps: {
  db: Db;
  config: Config;
  events: EventHub;
  logger: Logger;
}): SettingsAdminService {
  const repo = createSettingsAdminRepository(deps.db);
  const log = deps.logger.child({ module: 'settings-admin' });

  const decrypt = (row: StoredSettingRow): string | undefined => {
    if (!row.encrypted) return undefined;
    try {
      const value = decryptSecret(
        deps.config.encryptionKey,
        row.encrypted,
        secretContext(row.provider, row.keyName),
      );
      return value.trim() === '' ? undefined : value;
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      log.warn(
        { provider: row.provider, keyName: row.keyName },
        'stored API key does not decrypt; shown as unset',
      );
      return undefined;
    }
  };

  const describe = (key: SettingKey, row: StoredSettingRow | undefined): AdminSetting => {
    const stored = row ? decrypt(row) : undefined;
    const env = stored === undefined ? environmentValue(deps.config, key.provider, key.keyName) : undefined;
    const effective = stored ?? env;
    return {
      provider: key.provider,
      keyName: key.keyName,
      label: key.label,
      kind: key.kind,
      maskedValue: effective === undefined ? null : maskSettingValue(effective),
      isSet: effective !== undefined,
      source: stored !== undefined ? 'settings' : env !== undefined ? 'environment' : 'unset',
      updatedAt: stored !== undefined && row ? row.updatedAt.toISOString() : null,
    };
  };

  const validateValue = (key: SettingKey, value: string): void => {
    if (key.kind !== 'url') return;
    let ok = false;
    try {
      const url = new URL(value);
      ok = url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      ok = false;
    }
    if (!ok)
      throw new AppError('VALIDATION_FAILED', 'value: Please enter an http(s) URL', {
        value: 'Please enter an http(s) URL',
      });
  };

  return {
    async list() {
      const rows = await repo.findAll();
      const byKey = new Map(rows.map((r) => [`${r.provider}/${r.keyName}`, r]));
      return {
        settings: SETTING_KEYS.map((key) => describe(key, byKey.get(`${key.provider}/${key.keyName}`))),
      };
    },

    async update(provider, keyName, value, actor) {
      const key = findKey(provider, keyName);
      if (!key) throw new AppError('NOT_FOUND', `Unknown configuration ${provider}/${keyName}`);
      const trimmed = value.trim();
      const base = { provider, keyName };
      try {
        validateValue(key, trimmed);
        const encrypted = encryptSecret(deps.config.encryptionKey, trimmed, secretContext(provider, keyName));
        const { row, entry } = await deps.db.transaction().execute(async (trx) => {
          const row = await createSettingsAdminRepository(trx).upsert(provider, keyName, encrypted, actor.id);
          const entry = await recordAudit(
            trx,
            { action: 'update_api_config', details: { ...base, success: true, error: null }, actor },
            deps.logger,
          );
          return { row, entry };
        });
        await announceAudit(deps.events, entry);
        return describe(key, row);
      } catch (err) {
        // The failed attempt is recorded too (spec: success flag and error text).
        const error = err instanceof AppError ? err.message : 'Failed to update configuration';
        if (!(err instanceof AppError)) log.error({ err, provider, keyName }, 'configuration update failed');
        const entry = await recordAudit(
          deps.db,
          { action: 'update_api_config', details: { ...base, success: false, error }, actor },
          deps.logger,
        );
        await announceAudit(deps.events, entry);
        throw err;
      }
    },
  };
}
