import { z } from 'zod';

/**
 * The chain the shop takes payments on, as the browser needs it: the token's mint, the shop's
 * receiving wallet, the cluster (local ledger or a real one) and where signatures are explained.
 * Served inside GET /api/shop; addresses are public, nothing here is a secret.
 */

/** Base58 of 32 bytes: a wallet, mint or reference address. */
export const SolanaAddressSchema = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'Invalid Solana address');

/** Base58 of a 64-byte signature. */
export const SignatureSchema = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'Invalid transaction signature');

export const ClusterSchema = z.enum(['local', 'mainnet-beta', 'devnet', 'testnet']);
export type Cluster = z.infer<typeof ClusterSchema>;

export const TokenInfoSchema = z.object({
  symbol: z.string(),
  /** The token's mint (contract address); null when a real cluster is configured without one. */
  mint: SolanaAddressSchema.nullable(),
  decimals: z.number().int(),
  cluster: ClusterSchema,
  /** The Wallet Standard chain id wallets are asked to use (solana:localnet on the local ledger). */
  walletChain: z.string(),
  /** Crypto payments can be taken (mint and receiving wallet known). */
  paymentsEnabled: z.boolean(),
  /** Buy Token can sell (a treasury key is configured). */
  salesEnabled: z.boolean(),
  /** The local ledger's demo wallet can be registered in the page (local mode only). */
  demoWallet: z.boolean(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

/** Wallet Standard chain ids, per cluster. */
export const WALLET_CHAINS: Record<Cluster, string> = {
  local: 'solana:localnet',
  'mainnet-beta': 'solana:mainnet',
  devnet: 'solana:devnet',
  testnet: 'solana:testnet',
};

/** Solana Pay transaction request: the wallet POSTs its account. */
export const TransactionRequestInputSchema = z.object({ account: SolanaAddressSchema });
export const TransactionRequestResponseSchema = z.object({
  transaction: z.string(),
  message: z.string().optional(),
});
export type TransactionRequestResponse = z.infer<typeof TransactionRequestResponseSchema>;
/** Solana Pay transaction request: what a wallet shows before it asks for the account. */
export const TransactionRequestLabelSchema = z.object({ label: z.string(), icon: z.string() });

/** The local demo wallet: the demo shopper's key (local ledger only; 404 anywhere else). */
export const DemoWalletResponseSchema = z.object({
  address: SolanaAddressSchema,
  secretKey: z.array(z.number().int().min(0).max(255)).length(64),
  rpcUrl: z.string(),
});
export type DemoWalletResponse = z.infer<typeof DemoWalletResponseSchema>;

/** The local explorer's view of one transaction. */
export const ExplorerTransactionSchema = z.object({
  signature: z.string(),
  slot: z.number(),
  blockTime: z.number().nullable(),
  status: z.enum(['success', 'failed']),
  error: z.string().nullable(),
  feeLamports: z.string(),
  version: z.union([z.literal('legacy'), z.literal(0)]),
  accounts: z.array(
    z.object({
      address: z.string(),
      signer: z.boolean(),
      writable: z.boolean(),
      preLamports: z.string(),
      postLamports: z.string(),
    }),
  ),
  tokenBalances: z.array(
    z.object({
      account: z.string(),
      owner: z.string(),
      mint: z.string(),
      decimals: z.number(),
      pre: z.string(),
      post: z.string(),
    }),
  ),
  logs: z.array(z.string()),
});
export type ExplorerTransaction = z.infer<typeof ExplorerTransactionSchema>;
