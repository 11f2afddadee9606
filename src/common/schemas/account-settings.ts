import { z } from 'zod';
import { usStateCode } from '../us-states';
import { EMAIL_PATTERN, SHIPPING_FIELD_MAX_LENGTH, ZIP_PATTERN } from './checkout';

/**
 * A customer's profile settings (spec §2 /profile/settings, §4 Settings, §5 Settings save, §9
 * notification defaults): the form's rules once, for the form and the server. The spec kept them
 * in the browser; they are saved to the account so they follow the customer to every device and
 * prefill checkout. The email is the account's own and read-only here.
 */

export const SETTINGS_TEXTS = {
  phone: 'Please enter a valid 10-digit phone number',
  email: 'Please enter a valid email address',
  zip: 'Please enter a valid ZIP code (12345 or 12345-6789)',
  state: 'Please choose a US state',
  saved: 'Profile updated successfully',
} as const;

/** Spec §9: email on, sms off, marketing on. */
export const NOTIFICATION_DEFAULTS = { email: true, sms: false, marketing: true } as const;

export const NotificationsSchema = z.object({
  email: z.boolean().default(NOTIFICATION_DEFAULTS.email),
  sms: z.boolean().default(NOTIFICATION_DEFAULTS.sms),
  marketing: z.boolean().default(NOTIFICATION_DEFAULTS.marketing),
});
export type Notifications = z.output<typeof NotificationsSchema>;

const text = (max = SHIPPING_FIELD_MAX_LENGTH) =>
  z
    .string()
    .max(max, `At most ${max} characters`)
    .transform((v) => v.trim().replace(/[<>]/g, ''))
    .default('');

/** What the customer may change (the email is not among them). Empty optional fields are allowed. */
export const ProfileSettingsInputSchema = z.object({
  firstName: text(100),
  lastName: text(100),
  phone: text(30).refine((v) => v === '' || v.replace(/\D/g, '').length === 10, SETTINGS_TEXTS.phone),
  address: text(),
  city: text(100),
  state: text(60)
    .refine((v) => v === '' || usStateCode(v) !== undefined, SETTINGS_TEXTS.state)
    .transform((v) => (v === '' ? '' : (usStateCode(v) ?? ''))),
  zipCode: text(10).refine((v) => v === '' || ZIP_PATTERN.test(v), SETTINGS_TEXTS.zip),
  country: text(60),
  notifications: NotificationsSchema.default(NOTIFICATION_DEFAULTS),
});
export type ProfileSettingsInput = z.input<typeof ProfileSettingsInputSchema>;
export type ProfileSettingsValues = z.output<typeof ProfileSettingsInputSchema>;

export const ProfileSettingsSchema = z.object({
  ...ProfileSettingsInputSchema.shape,
  /** The state's USPS code, or ''. */
  state: z.string(),
  email: z.string(),
  updatedAt: z.string().nullable(),
});
export type ProfileSettings = z.output<typeof ProfileSettingsSchema>;

/** The browser's check of the read-only email, with the spec's message. */
export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}
