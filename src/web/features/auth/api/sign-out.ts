import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';

export function signOut(): Promise<unknown> {
  return apiClient.post('/api/auth/sign-out', {});
}

export interface UseSignOutOptions {
  /**
   * Runs after the server ended the session and before the cached user is cleared, so a page can
   * navigate away first (a guarded page would otherwise redirect to a login screen on its own).
   */
  onSignedOut?: () => void | Promise<void>;
}

/** Ends the session and forgets everything cached for the signed-in user. */
export function useSignOut({ onSignedOut }: UseSignOutOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: authKeys.signOut(),
    mutationFn: signOut,
    onSuccess: async () => {
      await onSignedOut?.();
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user: null });
    },
  });
}
