import { z } from 'zod';
import {
  TOKEN_PURCHASE_MESSAGES,
  tokenPurchaseCents,
  TOKEN_PURCHASE_MAX_USD,
  TOKEN_PURCHASE_MIN_USD,
} from '../token';

/**
 * Buy Token: the shopper names a USD amount; the server quotes it in SOL (paid to the shop) and
 * AELO (sent by the treasury) and answers a Solana Pay transaction request that moves both at once.
 */
export const TokenPurchaseInputSchema = z.object({
  amountUsd: z
    .string()
    .max(20)
    .transform((text, ctx) => {
      const cents = tokenPurchaseCents(text);
      if (cents === null) {
        const value = Number(text);
        ctx.addIssue({
          code: 'custom',
          message:
            Number.isFinite(value) && value > TOKEN_PURCHASE_MAX_USD
              ? TOKEN_PURCHASE_MESSAGES.max
              : Number.isFinite(value) && value < TOKEN_PURCHASE_MIN_USD
                ? TOKEN_PURCHASE_MESSAGES.min
                : 'Please enter an amount in dollars with at most 2 decimals',
        });
        return z.NEVER;
      }
      return cents;
    }),
});

export const TokenPurchaseStatusSchema = z.enum(['pending', 'completed', 'expired']);

export const TokenPurchaseResponseSchema = z.object({
  reference: z.string(),
  status: TokenPurchaseStatusSchema,
  usdCents: z.number().int(),
  /** What the buyer pays, in lamports, and what the treasury sends, in AELO base units (strings: bigints). */
  lamports: z.string(),
  tokenAmount: z.string(),
  tokenDecimals: z.number().int(),
  /** The Solana Pay transaction request (QR, deep link); the browser wallet POSTs to `transactionUrl`. */
  paymentUrl: z.string(),
  transactionUrl: z.string(),
  expiresAt: z.string(),
  transactionSignature: z.string().nullable(),
  message: z.string().optional(),
});
export type TokenPurchaseResponse = z.infer<typeof TokenPurchaseResponseSchema>;
