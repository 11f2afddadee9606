import { z } from 'zod';
import { PageQuerySchema, pageSchema } from './admin';
import { SignatureSchema, SolanaAddressSchema } from './chain';
import { PaymentReferenceSchema } from './checkout';
import { purchaseAmountError } from '../token-purchase-amount';

/**
 * Buy Token: a shopper pays SOL and receives AELO from the shop's treasury, in one transaction the
 * treasury partially signs (a Solana Pay transaction request), so both move together or neither.
 * The amount rules are the spec's (§5 Token purchase amount, §9), one copy for input and server, in
 * ../token-purchase-amount.ts (no zod: the Buy Token modal loads them without the schemas).
 */

/** How long a purchase's quote holds (the spec's payment timeout). */
export const TOKEN_PURCHASE_LIFETIME_MS = 5 * 60_000;

export const TokenPurchaseInputSchema = z.object({
  /** USD as typed: digits and one dot, at most 2 decimals, 10 to 50,000. */
  amountUsd: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'Enter an amount in dollars, such as 100 or 49.99')
    .superRefine((text, ctx) => {
      const error = purchaseAmountError(text);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
});
export type TokenPurchaseInput = z.infer<typeof TokenPurchaseInputSchema>;

export const TokenPurchaseStatusSchema = z.enum(['pending', 'completed', 'expired']);
export type TokenPurchaseStatus = z.infer<typeof TokenPurchaseStatusSchema>;

/** A purchase as its buyer sees it (the reference is the capability, as for payments). */
export const TokenPurchaseResponseSchema = z.object({
  reference: PaymentReferenceSchema,
  status: TokenPurchaseStatusSchema,
  usdCents: z.number().int(),
  /** What the buyer pays, in lamports (decimal string). */
  lamports: z.string(),
  /** What the buyer receives, in the token's base units (decimal string). */
  tokenAmount: z.string(),
  tokenDecimals: z.number().int(),
  solPriceUsd: z.string(),
  tokenPriceUsd: z.string(),
  /** `solana:<transaction request link>`: for the QR code and the wallet deep link. */
  paymentUrl: z.string(),
  /** The transaction request link itself (POST {account}). */
  transactionUrl: z.string(),
  expiresAt: z.string(),
  /** Set once completed. */
  signature: SignatureSchema.nullable(),
  buyer: SolanaAddressSchema.nullable(),
});
export type TokenPurchaseResponse = z.infer<typeof TokenPurchaseResponseSchema>;

/** GET /api/admin/token-purchases */
export const AdminTokenPurchasesQuerySchema = PageQuerySchema.extend({
  status: z.enum(['all', 'pending', 'completed', 'expired']).default('all'),
});
export type AdminTokenPurchasesQuery = z.output<typeof AdminTokenPurchasesQuerySchema>;

export const AdminTokenPurchaseSchema = z.object({
  id: z.string(),
  reference: z.string(),
  status: TokenPurchaseStatusSchema,
  usdCents: z.number().int(),
  lamports: z.string(),
  tokenAmount: z.string(),
  tokenDecimals: z.number().int(),
  buyer: z.string().nullable(),
  signature: z.string().nullable(),
  userEmail: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type AdminTokenPurchase = z.infer<typeof AdminTokenPurchaseSchema>;

export const AdminTokenPurchasesResponseSchema = z.object({
  purchases: pageSchema(AdminTokenPurchaseSchema),
  /** Over every completed purchase (not only the filtered page). */
  stats: z.object({
    completed: z.int(),
    usdCents: z.int(),
    tokenAmount: z.string(),
    lamports: z.string(),
  }),
});
export type AdminTokenPurchasesResponse = z.infer<typeof AdminTokenPurchasesResponseSchema>;
