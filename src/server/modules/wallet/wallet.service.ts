import { randomBytes } from 'node:crypto';
import { getAddressEncoder, isAddress, type Address } from '@solana/kit';
import { verifySignIn } from '@solana/wallet-standard-util';
import { WALLET_CHAINS, type Cluster } from '#common/schemas/chain';
import {
  WALLET_CHALLENGE_MINUTES,
  WALLET_TEXTS,
  type LinkedWallet,
  type WalletLinkRequest,
  type WalletSignInInput,
} from '#common/schemas/wallet';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { RateLimiter, RateLimitRule } from '#server/db/rate-limiter';
import { createWalletRepository } from './wallet.repository';

/** Sign-in requests one customer may ask for per quarter hour. */
export const WALLET_CHALLENGE_RATE_LIMIT: RateLimitRule = { max: 20, windowSeconds: 900 };

/** What the wallet shows the customer above the message they sign. */
export const signInStatement = (shopName: string) =>
  `Link this wallet to your ${shopName} account to see your holder rewards.`;

/**
 * A customer's wallet, proven before it is linked (Sign In With Solana, the Wallet Standard
 * `solana:signIn` message): the server writes every field of the message — this shop's domain and
 * URL, the chain, a one-time nonce, a 5-minute expiry — and links the wallet only when the
 * returned message is exactly that one, for that address, signed by that address's key, and its
 * nonce is the caller's own and unused. A wallet belongs to one account at a time.
 */
export function createWalletService(deps: {
  db: Db;
  publicUrl: string;
  shopName: string;
  cluster: () => Promise<Cluster>;
  rateLimiter: RateLimiter;
}) {
  const repo = createWalletRepository(deps.db);
  const url = new URL(deps.publicUrl);

  async function input(
    address: string,
    nonce: string,
    issuedAt: Date,
    expiresAt: Date,
  ): Promise<WalletSignInInput> {
    return {
      domain: url.host,
      address,
      statement: signInStatement(deps.shopName),
      uri: url.origin,
      version: '1',
      chainId: WALLET_CHAINS[await deps.cluster()],
      nonce,
      issuedAt: issuedAt.toISOString(),
      expirationTime: expiresAt.toISOString(),
    };
  }

  return {
    async get(userId: string): Promise<LinkedWallet> {
      const link = await repo.findLink(userId);
      return link
        ? { address: link.wallet_address, linkedAt: new Date(link.linked_at).toISOString() }
        : { address: null, linkedAt: null };
    },

    async challenge(userId: string, address: string, now = new Date()): Promise<WalletSignInInput> {
      if (!isAddress(address))
        throw new AppError('VALIDATION_FAILED', 'address: Invalid Solana address', {
          address: 'Invalid Solana address',
        });
      await deps.rateLimiter.consume('wallet-challenge', userId, WALLET_CHALLENGE_RATE_LIMIT);
      const nonce = randomBytes(16).toString('hex');
      const expiresAt = new Date(now.getTime() + WALLET_CHALLENGE_MINUTES * 60_000);
      await repo.insertChallenge({ nonce, userId, address, issuedAt: now, expiresAt });
      return input(address, nonce, now, expiresAt);
    },

    async link(userId: string, body: WalletLinkRequest, now = new Date()): Promise<LinkedWallet> {
      if (!isAddress(body.address)) throw new AppError('VALIDATION_FAILED', WALLET_TEXTS.badSignature);
      const signedMessage = Uint8Array.from(Buffer.from(body.signedMessage, 'base64'));
      const signature = Uint8Array.from(Buffer.from(body.signature, 'base64'));
      const nonce = /\nNonce: ([0-9a-f]{32})\n/.exec(new TextDecoder().decode(signedMessage))?.[1];
      if (!nonce || signature.length !== 64)
        throw new AppError('VALIDATION_FAILED', WALLET_TEXTS.badSignature);
      const challenge = await repo.takeChallenge(userId, nonce, now);
      if (!challenge || challenge.wallet_address !== body.address) {
        throw new AppError('VALIDATION_FAILED', WALLET_TEXTS.badSignature);
      }
      if (new Date(challenge.expires_at).getTime() <= now.getTime()) {
        throw new AppError('VALIDATION_FAILED', WALLET_TEXTS.expired);
      }
      const expected = await input(
        body.address,
        nonce,
        new Date(challenge.issued_at),
        new Date(challenge.expires_at),
      );
      const publicKey = Uint8Array.from(getAddressEncoder().encode(body.address as Address));
      const valid = verifySignIn(expected, {
        account: { address: body.address, publicKey, chains: [], features: [] },
        signedMessage,
        signature,
      });
      if (!valid) throw new AppError('VALIDATION_FAILED', WALLET_TEXTS.badSignature);
      await repo.link(userId, body.address, now);
      return this.get(userId);
    },

    async unlink(userId: string): Promise<LinkedWallet> {
      await repo.unlink(userId);
      return { address: null, linkedAt: null };
    },

    /** Deletes sign-in requests that expired a day ago (the sweeper calls it). */
    deleteExpiredChallenges(now = new Date()) {
      return repo.deleteChallengesBefore(new Date(now.getTime() - 86_400_000));
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
