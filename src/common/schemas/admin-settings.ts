import { z } from 'zod';

/** Admin API-key settings: keys, masked DTO and the update body. Routes: see admin.ts. */

/**
 * The API configurations the settings screen lists (a fixed catalogue: values for other keys are
 * refused). `kind: 'url'` values must be http(s) URLs.
 */
export const SETTING_KEYS = [
  { provider: 'stripe', keyName: 'secret_key', label: 'Stripe secret key', kind: 'secret' },
  { provider: 'stripe', keyName: 'publishable_key', label: 'Stripe publishable key', kind: 'secret' },
  { provider: 'stripe', keyName: 'webhook_secret', label: 'Stripe webhook signing secret', kind: 'secret' },
  { provider: 'carrier', keyName: 'client_id', label: 'USPS consumer key', kind: 'secret' },
  { provider: 'carrier', keyName: 'client_secret', label: 'USPS consumer secret', kind: 'secret' },
  { provider: 'market', keyName: 'price_url', label: 'SOL price feed URL', kind: 'url' },
  { provider: 'market', keyName: 'dex_url', label: 'Token market feed URL', kind: 'url' },
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const SETTING_VALUE_MAX_LENGTH = 2000;

export const AdminSettingSchema = z.object({
  provider: z.string(),
  keyName: z.string(),
  label: z.string(),
  kind: z.enum(['secret', 'url']),
  /** e.g. '••••••••4242' (at most the last 4 characters); null when unset. Never the full value. */
  maskedValue: z.string().nullable(),
  isSet: z.boolean(),
  /** Where the effective value comes from: these settings, the server environment, or nowhere. */
  source: z.enum(['settings', 'environment', 'unset']),
  updatedAt: z.string().nullable(),
  /** Stripe keys only: test or live, from the effective value's prefix (not a secret); else null. */
  mode: z.enum(['test', 'live']).nullable(),
  /** Whether the server's environment holds a value (what a removal falls back to). */
  hasEnvironmentValue: z.boolean(),
});
export type AdminSetting = z.infer<typeof AdminSettingSchema>;
export const AdminSettingListSchema = z.object({ settings: z.array(AdminSettingSchema) });
export type AdminSettingList = z.infer<typeof AdminSettingListSchema>;

export const AdminSettingUpdateSchema = z.object({
  value: z
    .string('Please enter a value')
    .trim()
    .min(1, 'Please enter a value')
    .max(SETTING_VALUE_MAX_LENGTH, `The value must be at most ${SETTING_VALUE_MAX_LENGTH} characters`),
});
export type AdminSettingUpdate = z.infer<typeof AdminSettingUpdateSchema>;

// Stripe keys: their shape, and test and live keys never mixed ------------------------------------

export type StripeMode = 'test' | 'live';

export const STRIPE_KEY_MESSAGES = {
  secretShape:
    'A Stripe secret key starts with sk_test_ or sk_live_ (rk_test_ or rk_live_ for a restricted key), followed by at least 20 letters and digits',
  publishableShape:
    'A Stripe publishable key starts with pk_test_ or pk_live_, followed by at least 20 letters and digits',
  webhookShape:
    'A Stripe webhook signing secret starts with whsec_, followed by at least 20 characters (copy it from the webhook endpoint in the Stripe Dashboard)',
} as const;

const STRIPE_SHAPES: Record<string, { pattern: RegExp; message: string }> = {
  secret_key: { pattern: /^[sr]k_(test|live)_[A-Za-z0-9]{20,}$/, message: STRIPE_KEY_MESSAGES.secretShape },
  publishable_key: {
    pattern: /^pk_(test|live)_[A-Za-z0-9]{20,}$/,
    message: STRIPE_KEY_MESSAGES.publishableShape,
  },
  webhook_secret: { pattern: /^whsec_[A-Za-z0-9+/=]{20,}$/, message: STRIPE_KEY_MESSAGES.webhookShape },
};

/** 'test' or 'live' for a Stripe secret, restricted or publishable key; null for anything else. */
export function stripeModeOf(value: string): StripeMode | null {
  const match = /^(?:sk|rk|pk)_(test|live)_/.exec(value.trim());
  return match ? (match[1] as StripeMode) : null;
}

/** The Stripe key whose mode must match this one's (secret with publishable), if any. */
export function stripeCounterpartOf(provider: string, keyName: string): string | null {
  if (provider !== 'stripe') return null;
  if (keyName === 'secret_key') return 'publishable_key';
  if (keyName === 'publishable_key') return 'secret_key';
  return null;
}

/** 'This is a live key, but the saved Stripe publishable key is a test key…' */
export function stripeMixedModeMessage(
  mode: StripeMode,
  counterpartLabel: string,
  counterpartMode: StripeMode,
) {
  return `This is a ${mode} key, but the ${counterpartLabel} in use is a ${counterpartMode} key: use test keys together or live keys together`;
}

/**
 * The value of one configuration, as the form checks it before sending and the server before
 * saving: present, not too long, a Stripe key of Stripe's shape, and (secret and publishable key)
 * of the same mode as the other one in use (`counterpartMode`, null when that one is unset).
 */
export function settingValueSchema(
  provider: string,
  keyName: string,
  counterpartMode: StripeMode | null = null,
) {
  const shape = provider === 'stripe' ? STRIPE_SHAPES[keyName] : undefined;
  const counterpart = stripeCounterpartOf(provider, keyName);
  const counterpartLabel = SETTING_KEYS.find(
    (k) => k.provider === provider && k.keyName === counterpart,
  )?.label;
  return AdminSettingUpdateSchema.shape.value.superRefine((value, ctx) => {
    if (shape && !shape.pattern.test(value)) {
      ctx.addIssue({ code: 'custom', message: shape.message });
      return;
    }
    const mode = stripeModeOf(value);
    if (mode && counterpartMode && counterpartLabel && mode !== counterpartMode) {
      ctx.addIssue({
        code: 'custom',
        message: stripeMixedModeMessage(mode, counterpartLabel, counterpartMode),
      });
    }
  });
}

export const SettingParamsSchema = z.object({
  provider: z.string().max(50),
  keyName: z.string().max(100),
});
