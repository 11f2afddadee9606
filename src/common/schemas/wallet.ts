import { z } from 'zod';
import { SolanaAddressSchema } from './chain';

/**
 * /profile/wallet (spec §2, §4 Wallet, §7 rewards, §8): a browser wallet proven by Sign In With
 * Solana before it is linked to the account, and the rewards of the linked wallet.
 */

export const WALLET_TEXTS = {
  install: 'Please install Phantom wallet',
  connect: 'Failed to connect wallet',
  connectToView: 'Connect your wallet to view rewards',
  fetchFailed: 'Failed to fetch rewards data',
  loadFailed: 'Failed to load rewards',
  badSignature: 'The wallet signature could not be verified. Please try again.',
  expired: 'That sign-in request has expired. Please connect again.',
} as const;

/** How long a sign-in request may wait for the wallet's signature. */
export const WALLET_CHALLENGE_MINUTES = 5;

/** POST /api/wallet/challenge: the wallet's address -> the Sign In With Solana input to sign. */
export const WalletChallengeRequestSchema = z.object({ address: SolanaAddressSchema });

/** The SolanaSignInInput fields the shop asks a wallet to sign (all set by the server). */
export const SignInInputSchema = z.object({
  domain: z.string(),
  address: z.string(),
  statement: z.string(),
  uri: z.string(),
  version: z.literal('1'),
  chainId: z.string(),
  nonce: z.string(),
  issuedAt: z.string(),
  expirationTime: z.string(),
});
export type WalletSignInInput = z.infer<typeof SignInInputSchema>;

const base64 = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Must be base64');

/** POST /api/wallet/link: what the wallet signed and its signature. */
export const WalletLinkRequestSchema = z.object({
  address: SolanaAddressSchema,
  /** The exact bytes the wallet signed (base64). */
  signedMessage: base64(4096),
  /** The Ed25519 signature (base64, 64 bytes). */
  signature: base64(128),
});
export type WalletLinkRequest = z.infer<typeof WalletLinkRequestSchema>;

export const LinkedWalletSchema = z.object({
  /** null: no wallet linked to the account. */
  address: z.string().nullable(),
  linkedAt: z.string().nullable(),
});
export type LinkedWallet = z.infer<typeof LinkedWalletSchema>;

/** POST /api/rewards {walletAddress}: the rewards of the account's linked wallet (spec §7). */
export const RewardsRequestSchema = z.object({ walletAddress: SolanaAddressSchema });

export const RewardsSchema = z.object({
  walletAddress: z.string(),
  /** Lamports, as decimal strings (integer base units). */
  totalEarned: z.string(),
  randomAirdrops: z.string(),
  top50Rewards: z.string(),
  /** Place in the latest top-50 distribution; null when the wallet was not in it. */
  rank: z.number().int().nullable(),
  airdropCount: z.number().int(),
  lastAirdropAt: z.string().nullable(),
});
export type Rewards = z.infer<typeof RewardsSchema>;
