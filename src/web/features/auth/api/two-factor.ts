import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorEnableResponse, TwoFactorStatus } from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';

/**
 * Two-factor sign-in: status, turning it on (password, then a first code) and off. The sign-in's
 * code step posts to the sign-in page's action (form-actions.server.ts).
 */

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
