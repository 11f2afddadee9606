import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import {
  SolanaSignIn,
  SolanaSignMessage,
  type SolanaSignInFeature,
  type SolanaSignMessageFeature,
} from '@solana/wallet-standard-features';
import {
  StandardConnect,
  StandardDisconnect,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
} from '@wallet-standard/features';
import { createSignInMessage } from '@solana/wallet-standard-util';
import type { WalletLinkRequest, WalletSignInInput } from '#common/schemas/wallet';
import { WALLET_MESSAGES } from './wallets';

/**
 * Proving a wallet through Wallet Standard: Sign In With Solana (`solana:signIn`) where the wallet
 * has it (Phantom, Solflare, Backpack, ...), else the same message through `solana:signMessage`.
 * The server writes the message; the wallet shows it to its owner and signs it.
 */

export type SigningWallet = Wallet & {
  features: StandardConnectFeature &
    Partial<SolanaSignInFeature & SolanaSignMessageFeature & StandardDisconnectFeature>;
};

function canSign(wallet: Wallet): wallet is SigningWallet {
  return (
    StandardConnect in wallet.features &&
    (SolanaSignIn in wallet.features || SolanaSignMessage in wallet.features)
  );
}

/** Solana wallets installed now that can prove an address, for this chain (or naming no chains). */
export function signingWallets(chain: string): SigningWallet[] {
  return getWallets()
    .get()
    .filter(canSign)
    .filter((w) => w.chains.length === 0 || w.chains.includes(chain as `${string}:${string}`));
}

export async function disconnectWallet(wallet: SigningWallet): Promise<void> {
  await wallet.features[StandardDisconnect]?.disconnect().catch(() => undefined);
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** Signs the server's sign-in `input` with `account`; the link request's body. */
export async function signInWithWallet(
  wallet: SigningWallet,
  account: WalletAccount,
  input: WalletSignInInput,
): Promise<WalletLinkRequest> {
  const signIn = wallet.features[SolanaSignIn];
  if (signIn) {
    const [output] = await signIn.signIn(input);
    if (!output) throw new Error(WALLET_MESSAGES.connect);
    return {
      address: output.account.address,
      signedMessage: toBase64(output.signedMessage),
      signature: toBase64(output.signature),
    };
  }
  const signMessage = wallet.features[SolanaSignMessage];
  if (!signMessage) throw new Error(WALLET_MESSAGES.connect);
  const [output] = await signMessage.signMessage({ account, message: createSignInMessage(input) });
  if (!output) throw new Error(WALLET_MESSAGES.connect);
  return {
    address: account.address,
    signedMessage: toBase64(output.signedMessage),
    signature: toBase64(output.signature),
  };
}
