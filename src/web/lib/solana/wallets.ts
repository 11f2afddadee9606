import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
} from '@solana/wallet-standard-features';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';
import { getBase58Decoder } from '@solana/kit';
import type { TransactionRequestResponse } from '#common/schemas/chain';
import { apiClient } from '../api-client';

/**
 * Browser wallets through Wallet Standard: any installed Solana wallet (Phantom, Solflare,
 * Backpack, ...) that can connect and sign-and-send, plus, on the local ledger, the page's own
 * Local Demo Wallet. Loaded only with the payment block or Buy Token, never on first load.
 */

export const WALLET_MESSAGES = {
  install: 'Please install Phantom wallet',
  connect: 'Failed to connect wallet',
} as const;

export type PayingWallet = Wallet & {
  features: StandardConnectFeature & SolanaSignAndSendTransactionFeature;
};

function canPay(wallet: Wallet): wallet is PayingWallet {
  return StandardConnect in wallet.features && SolanaSignAndSendTransaction in wallet.features;
}

/** Solana wallets installed now, for this chain (a wallet that names no chains is offered too). */
export function payingWallets(chain: string): PayingWallet[] {
  return getWallets()
    .get()
    .filter(canPay)
    .filter((w) => w.chains.length === 0 || w.chains.includes(chain as `${string}:${string}`));
}

/** Calls `listener` whenever a wallet registers or unregisters (extensions load late). */
export function onWalletsChange(listener: () => void): () => void {
  const wallets = getWallets();
  const offRegister = wallets.on('register', listener);
  const offUnregister = wallets.on('unregister', listener);
  return () => {
    offRegister();
    offUnregister();
  };
}

/** Asks the wallet for its account (the wallet may ask its owner); 'Failed to connect wallet' otherwise. */
export async function connectWallet(
  wallet: Wallet & { features: StandardConnectFeature },
): Promise<WalletAccount> {
  try {
    const { accounts } = await wallet.features[StandardConnect].connect();
    const account = accounts[0] ?? wallet.accounts[0];
    if (!account) throw new Error('no account');
    return account;
  } catch {
    throw new Error(WALLET_MESSAGES.connect);
  }
}

/**
 * Pays through a wallet: connect, ask the shop for the transaction (a Solana Pay transaction
 * request: the server writes recipient, amount and reference), let the wallet sign and send it.
 * Returns the signature; the shop's watcher decides whether it paid.
 */
export async function payWithWallet(
  wallet: PayingWallet,
  transactionPath: string,
  chain: string,
): Promise<string> {
  const account = await connectWallet(wallet);
  const { transaction } = await apiClient.post<TransactionRequestResponse>(transactionPath, {
    account: account.address,
  });
  const bytes = Uint8Array.from(atob(transaction), (c) => c.charCodeAt(0));
  const [result] = await wallet.features[SolanaSignAndSendTransaction].signAndSendTransaction({
    account,
    transaction: bytes,
    chain: chain as `${string}:${string}`,
  });
  if (!result) throw new Error('The wallet did not send the transaction');
  return getBase58Decoder().decode(result.signature);
}
