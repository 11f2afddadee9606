import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkedWallet, Rewards, WalletSignInInput } from '#common/schemas/wallet';
import { apiClient } from '#web/lib/api-client';
import { disconnectWallet, signInWithWallet, type SigningWallet } from '#web/lib/solana/wallet-sign-in';
import { connectWallet } from '#web/lib/solana/wallets';

/** The wallet linked to the account, its rewards, and linking one (connect, sign, link). */

export const walletKeys = {
  all: ['wallet'] as const,
  linked: () => [...walletKeys.all, 'linked'] as const,
  rewards: (address: string) => [...walletKeys.all, 'rewards', address] as const,
};

/**
 * The linked wallet: restored on every load and device, from the account.
 * For useQuery and the server's prefetch. A plain object: TanStack's `queryOptions` would be one
 * more export of the landing page's entry chunk.
 */
export function linkedWalletQueryOptions() {
  return {
    queryKey: walletKeys.linked(),
    queryFn: ({ signal }: { signal: AbortSignal }) => apiClient.get<LinkedWallet>('/api/wallet', { signal }),
  };
}

export function useLinkedWallet() {
  return useQuery(linkedWalletQueryOptions());
}

export function useRewards(address: string | null) {
  return useQuery({
    queryKey: walletKeys.rewards(address ?? ''),
    queryFn: ({ signal }) => apiClient.post<Rewards>('/api/rewards', { walletAddress: address }, { signal }),
    enabled: address !== null,
    refetchInterval: 60_000,
  });
}

/** Connects the wallet, has it sign the server's Sign In With Solana message, links it. */
export function useLinkWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (wallet: SigningWallet) => {
      const account = await connectWallet(wallet);
      const input = await apiClient.post<WalletSignInInput>('/api/wallet/challenge', {
        address: account.address,
      });
      const proof = await signInWithWallet(wallet, account, input);
      return apiClient.post<LinkedWallet>('/api/wallet/link', proof);
    },
    onSuccess: (linked) => queryClient.setQueryData(walletKeys.linked(), linked),
  });
}

export function useUnlinkWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (wallet: SigningWallet | undefined) => {
      const unlinked = await apiClient.delete<LinkedWallet>('/api/wallet');
      if (wallet) await disconnectWallet(wallet);
      return unlinked;
    },
    onSuccess: (unlinked) => queryClient.setQueryData(walletKeys.linked(), unlinked),
  });
}
