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

export const SettingParamsSchema = z.object({
  provider: z.string().max(50),
  keyName: z.string().max(100),
});
