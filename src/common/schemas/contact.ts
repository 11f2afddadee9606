import { z } from 'zod';
import { REPLY_BODY_MAX } from './support-threads';

/**
 * The contact form (/contact): how a guest, without an account, reaches the shop. It
 * lands in the admin's Messages inbox as a guest's message; the answers go to the email given,
 * and to the page of the order named, when its number and shipping email match an order. One
 * schema for the form and the server.
 */

export const CONTACT_NAME_MAX = 100;
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_ORDER_MAX = 40;
export const CONTACT_MESSAGE_MAX = REPLY_BODY_MAX;

export const CONTACT_TEXTS = {
  title: 'Contact us',
  intro:
    'Questions about an order, a product or the shop? Write to us here; no account needed. We answer by email, usually within a day.',
  nameRequired: 'Please enter your name',
  emailInvalid: 'Please enter a valid email address',
  messageRequired: 'Please write your message',
  sent: "Thank you! Your message is on its way. We'll answer you by email.",
  failed: 'Failed to send your message',
  rateLimited: 'You have sent many messages in a short time. Please try again later.',
  signedInHint: 'Signed in? You can also follow your tickets under Messages in your account.',
} as const;

export const ContactInputSchema = z.object({
  name: z
    .string(CONTACT_TEXTS.nameRequired)
    .trim()
    .min(1, CONTACT_TEXTS.nameRequired)
    .max(CONTACT_NAME_MAX, `Name must be at most ${CONTACT_NAME_MAX} characters`),
  email: z
    .string(CONTACT_TEXTS.emailInvalid)
    .trim()
    .max(CONTACT_EMAIL_MAX, CONTACT_TEXTS.emailInvalid)
    .pipe(z.email(CONTACT_TEXTS.emailInvalid)),
  /** Optional; blank is none. */
  orderNumber: z
    .string()
    .trim()
    .max(CONTACT_ORDER_MAX, `Order number must be at most ${CONTACT_ORDER_MAX} characters`)
    .optional()
    .transform((v) => (v ? v : undefined)),
  message: z
    .string(CONTACT_TEXTS.messageRequired)
    .trim()
    .min(1, CONTACT_TEXTS.messageRequired)
    .max(CONTACT_MESSAGE_MAX, `Message must be at most ${CONTACT_MESSAGE_MAX} characters`),
});
export type ContactInput = z.output<typeof ContactInputSchema>;

export const ContactResultSchema = z.object({ id: z.string() });
export type ContactResult = z.infer<typeof ContactResultSchema>;

/**
 * The order id prefix an order number names: '#A1B2C3D4', 'a1b2c3d4' or a whole order id ->
 * lowercase hex prefix (8 characters at least); undefined for anything else.
 */
export function orderNumberPrefix(orderNumber: string): string | undefined {
  const bare = orderNumber.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(bare)) return bare;
  return /^[0-9a-f]{8}$/.test(bare) ? bare : undefined;
}
