import {
  SETTING_KEYS,
  settingValueSchema,
  stripeCounterpartOf,
  stripeModeOf,
  type AdminSetting,
  type AdminSettingList,
  type SettingKey,
} from '#common/schemas/admin-settings';
import type { Config } from '#server/config';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { decryptSecret, encryptSecret, SecretBoxError } from '#server/lib/secret-box';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { EventHub } from '../events/event-hub';
import { createSettingsRepository, type StoredSettingRow } from './settings.repository';
import { createStripeKeyCheck, type StripeKeyCheck } from './stripe-key-check';

/**
 * API keys and service URLs (SETTING_KEYS): from the admin settings (table api_configurations,
 * encrypted at rest with lib/secret-box.ts under ENCRYPTION_KEY) or from the environment.
 *
 * Precedence: a value stored in the admin settings wins; the environment is the fallback. The
 * settings screen is how an operator changes keys on a running shop (every instance reads the
 * same row, no restart), while the environment seeds a deployment. A stored value that does not
 * decrypt (ENCRYPTION_KEY changed) is logged and treated as unset.
 *
 * Reads come from a snapshot of the table kept in memory for SETTINGS_CACHE_MS (one query for
 * every key, instead of one or more per checkout, cancel, webhook, config and market request).
 * The snapshot holds the rows as stored, encrypted: a value is decrypted when asked for, so no
 * key sits in clear in the cache (and none is ever logged). A save on this instance drops the
 * snapshot at once; a save through the settings screen on another instance announces itself (the
 * audit entry on the `admin:audit` live-event topic, through PostgreSQL NOTIFY), which drops it on
 * every instance; a lost LISTEN connection drops it too. The TTL is the backstop for a write that
 * announces nothing (setSecret from a script on another instance): a changed key applies on every
 * instance within SETTINGS_CACHE_MS at worst.
 *
 * The settings screen (list, update, remove) shows each value masked with where the effective value
 * comes from; an update is audited as update_api_config with provider, key name, success and error,
 * a removal likewise as remove_api_config. A value never leaves the server in full.
 *
 * Stripe keys are checked before they are saved: their shape and that test and live keys are not
 * mixed (settingValueSchema, the form's own check), and a secret key with one read-only call to
 * Stripe (stripe-key-check.ts): a key Stripe refuses, or cannot be asked about, is not saved.
 */

/** How long an instance reads settings from its snapshot before it reads the table again. */
export const SETTINGS_CACHE_MS = 10_000;

type KnownSetting = (typeof SETTING_KEYS)[number];
export type SecretProvider = KnownSetting['provider'];
/** The key names that exist for a provider (stripe: secret_key, publishable_key, webhook_secret, …). */
export type SettingKeyName<P extends SecretProvider> = Extract<KnownSetting, { provider: P }>['keyName'];

export interface SettingsService {
  getSecret<P extends SecretProvider>(provider: P, keyName: SettingKeyName<P>): Promise<string | undefined>;
  /** Stores (or, with null, clears) a value without an audit entry (tests, set-up scripts). */
  setSecret<P extends SecretProvider>(
    provider: P,
    keyName: SettingKeyName<P>,
    value: string | null,
    updatedBy?: string | null,
  ): Promise<void>;
  /** The settings screen: every known configuration, masked. */
  list(): Promise<AdminSettingList>;
  /** The settings screen's save: validated, encrypted, audited (failures too). */
  update(provider: string, keyName: string, value: string, actor: AdminActor): Promise<AdminSetting>;
  /**
   * The settings screen's Remove: deletes the saved value (the environment's, if any, applies
   * again), audited as remove_api_config (failures too). 404 when nothing is saved (not audited).
   */
  remove(provider: string, keyName: string, actor: AdminActor): Promise<AdminSetting>;
}

/** The value a setting takes from the server's environment when the admin settings hold none. */
export function environmentValue(config: Config, provider: string, keyName: string): string | undefined {
  const key = `${provider}/${keyName}`;
  if (key === 'stripe/secret_key') return config.stripe.secretKey;
  if (key === 'stripe/webhook_secret') return config.stripe.webhookSecret;
  if (key === 'market/price_url') return config.market.priceUrl;
  if (key === 'market/dex_url') return config.market.dexUrl;
  if (key === 'carrier/client_id') return config.tracking.uspsClientId;
  if (key === 'carrier/client_secret') return config.tracking.uspsClientSecret;
  return undefined;
}

/** The context bound into each stored value (see secret-box.ts). */
export function secretContext(provider: string, keyName: string): string {
  return `${provider}/${keyName}`;
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

/** A zod refusal as the settings screen's field error. */
function valueRefused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', `value: ${message}`, { value: message });
}

function validateValue(key: SettingKey, value: string): void {
  if (key.kind !== 'url') return;
  const ok = URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
  if (!ok) {
    throw new AppError('VALIDATION_FAILED', 'value: Please enter an http(s) URL', {
      value: 'Please enter an http(s) URL',
    });
  }
}

export function createSettingsService({
  config,
  db,
  events,
  logger,
  now = Date.now,
  checkStripeKey = createStripeKeyCheck(config),
}: {
  config: Config;
  db: Db;
  events: EventHub;
  logger: Logger;
  now?: () => number;
  /** Asks Stripe whether it knows a secret key (throws the refusal); see stripe-key-check.ts. */
  checkStripeKey?: StripeKeyCheck;
}): SettingsService {
  const repo = createSettingsRepository(db);
  const log = logger.child({ module: 'settings' });

  // The snapshot: every stored row (encrypted) by `provider/keyName`, and when it was read.
  let snapshot: { rows: Map<string, StoredSettingRow>; readAt: number } | undefined;
  let loading: Promise<Map<string, StoredSettingRow>> | undefined;
  // Bumped by every invalidation, so a read that started before a save cannot store its rows after it.
  let generation = 0;
  const invalidate = () => {
    generation++;
    snapshot = undefined;
    loading = undefined;
  };
  const storedRows = (): Promise<Map<string, StoredSettingRow>> => {
    if (snapshot && now() - snapshot.readAt < SETTINGS_CACHE_MS) return Promise.resolve(snapshot.rows);
    if (loading) return loading;
    const startedIn = generation;
    const readAt = now();
    const load = repo.findAll().then(
      (list) => {
        const rows = new Map(list.map((r) => [`${r.provider}/${r.keyName}`, r]));
        if (startedIn === generation) snapshot = { rows, readAt };
        if (loading === load) loading = undefined;
        return rows;
      },
      (err: unknown) => {
        if (loading === load) loading = undefined;
        throw err;
      },
    );
    loading = load;
    return load;
  };
  // Saves made through another instance's settings screen: its audit entry reaches every instance.
  events.subscribe(
    ['admin:audit'],
    (event) => {
      const action = (event.data as { action?: unknown } | undefined)?.action;
      // An entry too large for NOTIFY arrives without its data: it may be a save.
      if (action === undefined || action === 'update_api_config' || action === 'remove_api_config') {
        invalidate();
      }
    },
    { onGap: invalidate },
  );

  /** The stored value in clear; undefined when empty or when it does not decrypt (logged). */
  const decrypt = (row: StoredSettingRow | null | undefined): string | undefined => {
    if (!row?.encrypted) return undefined;
    try {
      const value = decryptSecret(
        config.encryptionKey,
        row.encrypted,
        secretContext(row.provider, row.keyName),
      );
      return value.trim() === '' ? undefined : value.trim();
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      log.warn(
        { provider: row.provider, keyName: row.keyName },
        'stored API key does not decrypt (ENCRYPTION_KEY changed?); treated as unset',
      );
      return undefined;
    }
  };

  const encrypt = (provider: string, keyName: string, value: string) =>
    encryptSecret(config.encryptionKey, value, secretContext(provider, keyName));

  const describe = (key: SettingKey, row: StoredSettingRow | undefined): AdminSetting => {
    const stored = decrypt(row);
    const env = stored === undefined ? environmentValue(config, key.provider, key.keyName) : undefined;
    const effective = stored ?? env;
    const hasEnvironmentValue = environmentValue(config, key.provider, key.keyName) !== undefined;
    return {
      provider: key.provider,
      keyName: key.keyName,
      label: key.label,
      kind: key.kind,
      maskedValue: effective === undefined ? null : maskSettingValue(effective),
      isSet: effective !== undefined,
      source: stored !== undefined ? 'settings' : env !== undefined ? 'environment' : 'unset',
      updatedAt: stored !== undefined && row ? row.updatedAt.toISOString() : null,
      mode: key.provider === 'stripe' && effective !== undefined ? stripeModeOf(effective) : null,
      hasEnvironmentValue,
    };
  };

  /** The value in effect now (saved, else environment), read from the table itself. */
  const effectiveNow = async (provider: string, keyName: string): Promise<string | undefined> => {
    const rows = await repo.findAll();
    const row = rows.find((r) => r.provider === provider && r.keyName === keyName);
    return decrypt(row) ?? environmentValue(config, provider, keyName);
  };

  /** Stripe keys: shape, mode against the other key in use, and (secret key) Stripe's own word. */
  const checkStripe = async (key: SettingKey, value: string): Promise<void> => {
    if (key.provider !== 'stripe') return;
    const counterpart = stripeCounterpartOf(key.provider, key.keyName);
    const counterpartValue = counterpart ? await effectiveNow(key.provider, counterpart) : undefined;
    const counterpartMode = counterpartValue ? stripeModeOf(counterpartValue) : null;
    const parsed = settingValueSchema(key.provider, key.keyName, counterpartMode).safeParse(value);
    if (!parsed.success) throw valueRefused(parsed.error.issues[0]?.message ?? 'Please enter a value');
    if (key.keyName === 'secret_key') await checkStripeKey(value);
  };

  /** Records (and announces) a failed attempt, then lets the error go on. */
  const auditFailure = async (
    action: 'update_api_config' | 'remove_api_config',
    base: { provider: string; keyName: string },
    err: unknown,
    actor: AdminActor,
  ): Promise<never> => {
    const error =
      err instanceof AppError
        ? err.message
        : action === 'update_api_config'
          ? 'Failed to update configuration'
          : 'Failed to remove configuration';
    if (!(err instanceof AppError)) log.error({ err, ...base }, `configuration ${action} failed`);
    const entry = await recordAudit(
      db,
      { action, details: { ...base, success: false, error }, actor },
      logger,
    );
    await announceAudit(events, entry);
    throw err;
  };

  return {
    async getSecret(provider, keyName) {
      const rows = await storedRows();
      return decrypt(rows.get(`${provider}/${keyName}`)) ?? environmentValue(config, provider, keyName);
    },

    async setSecret(provider, keyName, value, updatedBy = null) {
      const trimmed = value?.trim() ?? '';
      try {
        await repo.upsert(
          provider,
          keyName,
          trimmed === '' ? null : encrypt(provider, keyName, trimmed),
          updatedBy,
        );
      } finally {
        invalidate();
      }
    },

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
        await checkStripe(key, trimmed);
        const encrypted = encrypt(provider, keyName, trimmed);
        const { row, entry } = await db.transaction().execute(async (trx) => {
          const row = await createSettingsRepository(trx).upsert(provider, keyName, encrypted, actor.id);
          const entry = await recordAudit(
            trx,
            { action: 'update_api_config', details: { ...base, success: true, error: null }, actor },
            logger,
          );
          return { row, entry };
        });
        invalidate();
        await announceAudit(events, entry);
        return describe(key, row);
      } catch (err) {
        // The failed attempt is recorded too (spec: success flag and error text).
        return auditFailure('update_api_config', base, err, actor);
      }
    },

    async remove(provider, keyName, actor) {
      const key = findKey(provider, keyName);
      if (!key) throw new AppError('NOT_FOUND', `Unknown configuration ${provider}/${keyName}`);
      const base = { provider, keyName };
      try {
        const entry = await db.transaction().execute(async (trx) => {
          const removed = await createSettingsRepository(trx).remove(provider, keyName);
          if (!removed) throw new AppError('NOT_FOUND', 'There is no saved value to remove');
          return recordAudit(
            trx,
            { action: 'remove_api_config', details: { ...base, success: true, error: null }, actor },
            logger,
          );
        });
        invalidate();
        await announceAudit(events, entry);
        return describe(key, undefined);
      } catch (err) {
        invalidate();
        // Nothing saved: nothing was attempted on a value, so nothing to audit (a refused request
        // changes no table, hardening-properties.test.ts).
        if (err instanceof AppError && err.code === 'NOT_FOUND') throw err;
        return auditFailure('remove_api_config', base, err, actor);
      }
    },
  };
}
