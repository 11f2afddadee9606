import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionUser, TwoFactorEnableResponse, TwoFactorStatus } from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';

/** Two-factor sign-in: status, turning it on (password, then a first code) and off, and the sign-in's code step. */

const statusKey = [...authKeys.all, 'two-factor'] as const;

/**
 * For useQuery and the server's prefetch. A plain object: TanStack's `queryOptions` would be one
 * more export of the landing page's entry chunk.
 */
export function twoFactorStatusQueryOptions() {
  return {
    queryKey: statusKey,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiClient.get<TwoFactorStatus>('/api/auth/two-factor', { signal }),
  };
}

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}

export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: (password: string) =>
      apiClient.post<TwoFactorEnableResponse>('/api/auth/two-factor/enable', { password }),
  });
}

export function useConfirmTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiClient.post('/api/auth/two-factor/confirm', { code }),
    onSuccess: () => queryClient.setQueryData<TwoFactorStatus>(statusKey, { enabled: true }),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { password: string; code: string }) =>
      apiClient.post('/api/auth/two-factor/disable', input),
    onSuccess: () => queryClient.setQueryData<TwoFactorStatus>(statusKey, { enabled: false }),
  });
}

/** The sign-in's second step; signs in like useSignIn does. */
export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { code: string; kind: 'totp' | 'backup' }) =>
      (await apiClient.post<{ user: SessionUser }>('/api/auth/two-factor/verify', input)).user,
    onSuccess: (user) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user });
    },
  });
}
