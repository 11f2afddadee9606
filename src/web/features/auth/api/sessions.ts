import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSessionList, PasswordChangeInput } from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';

/** The signed-in customer's devices (sessions) and password change. */

const sessionsKey = [...authKeys.all, 'sessions'] as const;

/**
 * For useQuery and the server's prefetch. A plain object: TanStack's `queryOptions` would be one
 * more export of the landing page's entry chunk.
 */
export function sessionsQueryOptions() {
  return {
    queryKey: sessionsKey,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiClient.get<AccountSessionList>('/api/auth/sessions', { signal }),
  };
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete(`/api/auth/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post<{ revoked: number }>('/api/auth/sessions/revoke-others'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      apiClient.post<{ ok: true; revoked: number }>('/api/auth/password', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
