import { z } from 'zod';
import { shippingCountryCode, usStateCode } from '../us-states';
import { MAX_LINE_QUANTITY } from '../money';
import { PASSWORD_BLANK_MESSAGE, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth';
import { SizeSchema } from './product';

/**
 * Checkout contract: the shipping info with the spec's validation messages (§5, verbatim), the
 * checkout request (ids, options and quantities only: the server prices everything), the payment
 * it starts, and the payment-status answer the /success page polls.
 */

// Shipping info --------------------------------------------------------------------------------------

export const SHIPPING_FIELDS = [
  { key: 'firstName', label: 'First Name' },
  { key: 'lastName', label: 'Last Name' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'address', label: 'Address' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State' },
  { key: 'zipCode', label: 'ZIP Code' },
  { key: 'country', label: 'Country' },
] as const;

export type ShippingField = (typeof SHIPPING_FIELDS)[number]['key'];
export type ShippingInfo = Record<ShippingField, string>;

export const CHECKOUT_MESSAGES = {
  missingPrefix: 'Please fill in all required fields: ',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number (10 digits)',
  zip: 'Please enter a valid ZIP code (5 digits or 5+4 format)',
  emptyCart: 'Your cart is empty',
  /** A payment that failed in the browser for a reason the server did not name. */
  paymentFailed: 'Failed to process payment',
  passwordLength: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordMatch: 'Passwords do not match',
  state: 'Please choose a US state',
  country: 'We ship to the United States only',
} as const;

export const SHIPPING_FIELD_MAX_LENGTH = 200;
export const EMAIL_MAX_LENGTH = 254;
/** A standard address pattern: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;
export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;

export type ShippingValidation =
  | { ok: true; value: ShippingInfo }
  | { ok: false; message: string; fields: Partial<Record<ShippingField, string>> };

/**
 * The spec's checkout-info rules in their order: all nine fields required (one message naming
 * every missing label), then email, phone and ZIP, then a US state and a country we ship to. `fields` holds every
 * field's own message at once. On success `<` and `>` are stripped from every field (and
 * surrounding spaces trimmed) and the state and country are their codes.
 */
export function validateShippingInfo(input: Partial<Record<ShippingField, unknown>>): ShippingValidation {
  const raw = {} as ShippingInfo;
  for (const { key } of SHIPPING_FIELDS) {
    const value = input[key];
    raw[key] = typeof value === 'string' ? value.trim() : '';
  }
  // Every field's own message, so a form can show them all at once beside their fields; the
  // banner message is the spec's, for the first rule broken (missing fields, email, phone, ZIP).
  const fields: Partial<Record<ShippingField, string>> = {};
  const missing = SHIPPING_FIELDS.filter(({ key }) => raw[key] === '');
  for (const { key, label } of missing) fields[key] = `${label} is required`;
  const emailBad =
    raw.email !== '' && (raw.email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(raw.email));
  const phoneBad = raw.phone !== '' && raw.phone.replace(/\D/g, '').length !== 10;
  const zipBad = raw.zipCode !== '' && !ZIP_PATTERN.test(raw.zipCode);
  const stateBad = raw.state !== '' && !usStateCode(raw.state);
  const countryBad = raw.country !== '' && !shippingCountryCode(raw.country);
  if (emailBad) fields.email = CHECKOUT_MESSAGES.email;
  if (phoneBad) fields.phone = CHECKOUT_MESSAGES.phone;
  if (zipBad) fields.zipCode = CHECKOUT_MESSAGES.zip;
  if (stateBad) fields.state = CHECKOUT_MESSAGES.state;
  if (countryBad) fields.country = CHECKOUT_MESSAGES.country;
  const tooLong = SHIPPING_FIELDS.filter(({ key }) => raw[key].length > SHIPPING_FIELD_MAX_LENGTH);
  for (const { key, label } of tooLong)
    fields[key] ??= `${label} must be at most ${SHIPPING_FIELD_MAX_LENGTH} characters`;

  const message =
    missing.length > 0
      ? CHECKOUT_MESSAGES.missingPrefix + missing.map((f) => f.label).join(', ')
      : emailBad
        ? CHECKOUT_MESSAGES.email
        : phoneBad
          ? CHECKOUT_MESSAGES.phone
          : zipBad
            ? CHECKOUT_MESSAGES.zip
            : stateBad
              ? CHECKOUT_MESSAGES.state
              : countryBad
                ? CHECKOUT_MESSAGES.country
                : tooLong[0]
                  ? fields[tooLong[0].key]!
                  : null;
  if (message !== null) return { ok: false, message, fields };

  const value = {} as ShippingInfo;
  for (const { key } of SHIPPING_FIELDS) value[key] = raw[key].replace(/[<>]/g, '');
  value.email = value.email.toLowerCase();
  value.state = usStateCode(value.state)!;
  value.country = shippingCountryCode(value.country)!;
  return { ok: true, value };
}

/** The same rules as a zod schema for the server (400 with the spec's message and the field). */
export const ShippingInfoSchema = z
  .object(Object.fromEntries(SHIPPING_FIELDS.map(({ key }) => [key, z.string().max(10_000).optional()])))
  .transform((input, ctx) => {
    const result = validateShippingInfo(input);
    if (!result.ok) {
      for (const [field, message] of Object.entries(result.fields)) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: result.message === message ? message : result.message,
        });
      }
      return z.NEVER;
    }
    return result.value;
  });

// Checkout request -----------------------------------------------------------------------------------

export const PaymentMethodSchema = z.enum(['card', 'sol', 'aelo']);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

export const CheckoutLineInputSchema = z.object({
  productId: z.uuid('Unknown product'),
  size: SizeSchema.nullish(),
  color: z.string().trim().max(50).nullish(),
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
});
export type CheckoutLineInput = z.infer<typeof CheckoutLineInputSchema>;

export const CreateAccountInputSchema = z
  .object({
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, CHECKOUT_MESSAGES.passwordLength)
      .max(PASSWORD_MAX_LENGTH)
      .refine((v) => v.trim() !== '', PASSWORD_BLANK_MESSAGE),
    confirmPassword: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: CHECKOUT_MESSAGES.passwordMatch,
  });

/** What the browser sends. Amounts are not part of it: any amount sent is ignored (stripped). */
export const CheckoutInputSchema = z.object({
  items: z.array(CheckoutLineInputSchema).min(1, CHECKOUT_MESSAGES.emptyCart).max(50),
  shippingInfo: ShippingInfoSchema,
  paymentMethod: PaymentMethodSchema,
  createAccount: CreateAccountInputSchema.optional(),
  /** The browser's cart (a random id it keeps): a new checkout from it replaces the earlier one. */
  cartId: z.uuid().optional(),
});
export type CheckoutInput = z.input<typeof CheckoutInputSchema>;

// Checkout response ------------------------------------------------------------------------------------

/**
 * One priced line: what the checkout answers, what the payment keeps (payments.lines) and what
 * the order's items copy. The one line type of the shop.
 */
export const PricedLineSchema = z.object({
  productId: z.string(),
  title: z.string(),
  /** The product's first image path (storage key or URL). */
  image: z.string(),
  category: z.string(),
  size: z.string().nullable(),
  color: z.string().nullable(),
  quantity: z.number().int().min(1),
  priceCents: z.number().int().min(0),
  lineTotalCents: z.number().int().min(0),
});
export type PricedLine = z.infer<typeof PricedLineSchema>;

export const CheckoutAmountsSchema = z.object({
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
});
export type CheckoutAmounts = z.infer<typeof CheckoutAmountsSchema>;

export const CheckoutResponseSchema = z.object({
  reference: z.string(),
  /**
   * The checkout's access token: sent back with the status (`?token=`) it unlocks the order's
   * number and links. The reference alone is public once paid (it is named on the chain).
   */
  accessToken: z.string(),
  paymentMethod: PaymentMethodSchema,
  lines: z.array(PricedLineSchema),
  amounts: CheckoutAmountsSchema,
  expiresAt: z.string(),
  /** Card: the Stripe Checkout page to redirect to. */
  checkoutUrl: z.string().optional(),
  /**
   * Crypto: what to pay, in base units (a bigint as text), of which mint (null: SOL), to whom; the
   * Solana Pay transfer request (QR code, wallet link) and transaction request (browser wallet).
   */
  crypto: z
    .object({
      recipient: z.string(),
      amount: z.string(),
      decimals: z.number().int(),
      mint: z.string().nullable(),
      paymentUrl: z.string(),
      transactionUrl: z.string(),
    })
    .optional(),
});
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

// Payment status -------------------------------------------------------------------------------------

export const PaymentReferenceSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Invalid payment reference');

/** The spec's payment-status answer: status ('completed' when paid) and transaction_signature. */
export const PaymentStatusResponseSchema = z.object({
  status: z.enum(['pending', 'completed', 'failed', 'expired']),
  transaction_signature: z.string().nullable(),
  order_id: z.string().nullable(),
  message: z.string().optional(),
  /** How it was paid: a card payment has no on-chain signature (transaction_signature stays null). */
  payment_method: PaymentMethodSchema.optional(),
  /**
   * The order this payment placed was paid with test money (the local demo ledger, Stripe's test
   * mode; `orders.demo`): nothing was charged and nothing ships. False while no order exists.
   */
  demo: z.boolean(),
  /**
   * Only with the checkout's access token (`?token=`, from the checkout answer): the order's
   * number (first 8 characters of its id), its guest page (the signed link the order mail
   * carries, as a path) and, when the order belongs to an account, the account's order page.
   */
  order_number: z.string().nullable().optional(),
  order_url: z.string().nullable().optional(),
  account_order_url: z.string().nullable().optional(),
  /**
   * Crypto: what has arrived so far toward the amount due (transfers naming the reference add up),
   * in whole coins as text ('0.1100'); present once anything arrived.
   */
  received: z
    .object({
      symbol: z.string(),
      receivedText: z.string(),
      dueText: z.string(),
      remainingText: z.string(),
    })
    .optional(),
  /** Money being (or already) sent back for this payment: automatic refunds and the admin's. */
  refunds: z
    .array(
      z.object({
        amountText: z.string(),
        status: z.enum(['pending', 'sent', 'awaiting_signature', 'succeeded', 'failed']),
        reason: z.string(),
      }),
    )
    .optional(),
});
export type PaymentStatusResponse = z.infer<typeof PaymentStatusResponseSchema>;

// Checkout configuration ------------------------------------------------------------------------------

/** GET /api/checkout/config: which payment methods the server can take right now. */
export const CheckoutConfigResponseSchema = z.object({
  card: z.object({ enabled: z.boolean() }),
  crypto: z.object({ enabled: z.boolean() }),
  /** Minutes a crypto checkout holds its stock (card payments: the Checkout Session's life). */
  reservationMinutes: z.number().int(),
});
export type CheckoutConfigResponse = z.infer<typeof CheckoutConfigResponseSchema>;

export const CHECKOUT_SERVER_MESSAGES = {
  cardNotConfigured: 'Card payments are not configured',
  cryptoNotConfigured: 'Crypto payments are not configured yet',
  checkoutSessionFailed: 'Failed to create checkout session',
  rateLimited: 'Too many checkout attempts. Please wait a few minutes and try again.',
  tooManyOpen:
    'You already have checkouts in progress. Complete or cancel one, or wait a few minutes for them to expire.',
  tooManyHeld:
    'Your checkouts in progress already hold as many items as we can set aside. Complete or cancel one first.',
  cartAlreadyPaid:
    'This cart has already been paid for, so it was not charged again. Your order confirmation is on its way by email.',
} as const;
