import { z } from 'zod';
import { AdminSearchSchema, PageQuerySchema, pageSchema } from './admin';

/** Admin airdrops: claims list, processing result, lamport display. Routes: see admin.ts. */

export const AIRDROP_AGES = ['24h', '7d', 'older'] as const;
export type AirdropAge = (typeof AIRDROP_AGES)[number];

export const AdminAirdropsQuerySchema = z.object({
  /** Wallet address or claim id, case-insensitive substring. */
  search: AdminSearchSchema,
  /** Spec §4 buckets: 24h = under 24 hours, 7d = 24 to 168 hours, older = 168 hours or more. */
  age: z.enum(['all', ...AIRDROP_AGES]).default('all'),
  ...PageQuerySchema.shape,
});
export type AdminAirdropsQuery = z.output<typeof AdminAirdropsQuerySchema>;

export const AirdropClaimSchema = z.object({
  id: z.string(),
  walletAddress: z.string(),
  amountLamports: z.string(),
  /** For display (2 decimals). */
  amountSol: z.number(),
  createdAt: z.string(),
  age: z.enum(AIRDROP_AGES),
  status: z.literal('Claimed'),
});
export type AirdropClaim = z.infer<typeof AirdropClaimSchema>;

export const AdminAirdropsSchema = z.object({
  claims: pageSchema(AirdropClaimSchema),
  /** Over every claim (not only the filtered ones). */
  stats: z.object({
    totalClaims: z.int(),
    totalLamports: z.string(),
    totalSol: z.number(),
    uniqueWallets: z.int(),
  }),
  schedule: z.object({
    /**
     * When the scheduled daily top-50 airdrop runs next (ISO, UTC): on a new shop, the first slot
     * after it first started. Null when the shop cannot airdrop (no token or treasury key).
     */
    nextDailyAt: z.string().nullable(),
  }),
});
export type AdminAirdrops = z.infer<typeof AdminAirdropsSchema>;

/** POST /api/admin/airdrops/process: no parameters (an empty body or {}). */
export const AirdropProcessInputSchema = z.strictObject({});
/** Spec §7: the answer holds `recipients` and `totalAmount` (SOL); lamports too, exactly. */
export const AirdropProcessResultSchema = z.object({
  recipients: z.int(),
  totalAmount: z.number(),
  totalAmountLamports: z.string(),
});
export type AirdropProcessResult = z.infer<typeof AirdropProcessResultSchema>;
