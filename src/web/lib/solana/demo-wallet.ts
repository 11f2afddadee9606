import {
  createKeyPairFromBytes,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
  signBytes,
} from '@solana/kit';
import type { SolanaSignInInput } from '@solana/wallet-standard-features';
import { createSignInMessage } from '@solana/wallet-standard-util';
import { registerWallet } from '@wallet-standard/wallet';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import type { DemoWalletResponse } from '#common/schemas/chain';
import { apiClient } from '../api-client';

/**
 * The Local Demo Wallet: a Wallet Standard wallet the page registers on the local ledger only
 * (the server answers its key only there), holding the demo shopper's keys, so the browser-wallet
 * path (paying, and proving the wallet on /profile/wallet) works with no extension. It signs in the
 * page (WebCrypto Ed25519) and sends to /local-chain.
 */

const ICON =
  'data:image/svg+xml;base64,' +
  btoa(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#e11d48"/><path d="M9 11h14v10H9z" fill="none" stroke="#fff" stroke-width="2"/><circle cx="19" cy="16" r="1.5" fill="#fff"/></svg>',
  );

let registered: Promise<void> | undefined;

export function registerDemoWallet(): Promise<void> {
  registered ??= (async () => {
    const demo = await apiClient.get<DemoWalletResponse>('/api/chain/demo-wallet');
    const keyPair = await createKeyPairFromBytes(Uint8Array.from(demo.secretKey));
    const publicKey = Uint8Array.from(demo.secretKey.slice(32));
    const account: WalletAccount = {
      address: demo.address,
      publicKey,
      chains: ['solana:localnet'],
      features: ['solana:signAndSendTransaction', 'solana:signMessage', 'solana:signIn'],
    };
    const signMessage = async (message: Uint8Array) => ({
      signedMessage: message,
      signature: new Uint8Array(await signBytes(keyPair.privateKey, message)),
    });
    const wallet: Wallet = {
      version: '1.0.0',
      name: 'Local Demo Wallet',
      icon: ICON as `data:image/svg+xml;base64,${string}`,
      chains: ['solana:localnet'],
      accounts: [account],
      features: {
        'standard:connect': { version: '1.0.0', connect: () => Promise.resolve({ accounts: [account] }) },
        'standard:events': { version: '1.0.0', on: () => () => undefined },
        'solana:signMessage': {
          version: '1.1.0',
          signMessage: (...inputs: Array<{ message: Uint8Array }>) =>
            Promise.all(inputs.map((input) => signMessage(input.message))),
        },
        'solana:signIn': {
          version: '1.0.0',
          signIn: (...inputs: SolanaSignInInput[]) =>
            Promise.all(
              inputs.map(async (input) => {
                const message = createSignInMessage({
                  ...input,
                  domain: input.domain ?? window.location.host,
                  address: account.address,
                });
                return { account, ...(await signMessage(message)) };
              }),
            ),
        },
        'solana:signAndSendTransaction': {
          version: '1.0.0',
          supportedTransactionVersions: ['legacy', 0],
          signAndSendTransaction: async (...inputs: Array<{ transaction: Uint8Array }>) => {
            const outputs = [];
            for (const input of inputs) {
              const decoded = getTransactionDecoder().decode(input.transaction);
              const signed = await partiallySignTransaction([keyPair], decoded);
              const reply = await apiClient.post<{ result?: string; error?: { message: string } }>(
                '/local-chain',
                {
                  jsonrpc: '2.0',
                  id: 1,
                  method: 'sendTransaction',
                  params: [
                    getBase64EncodedWireTransaction(signed),
                    { encoding: 'base64', preflightCommitment: 'confirmed' },
                  ],
                },
              );
              if (!reply.result) throw new Error(reply.error?.message ?? 'Transaction failed');
              outputs.push({ signature: Uint8Array.from(getBase58Encoder().encode(reply.result)) });
            }
            return outputs;
          },
        },
      },
    };
    registerWallet(wallet);
  })();
  // A failed attempt (the server out of reach for a moment) is tried again on the next call.
  registered.catch(() => {
    registered = undefined;
  });
  return registered;
}
