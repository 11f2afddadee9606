import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';

export function signOut(): Promise<unknown> {
  return apiClient.post('/api/auth/sign-out', {});
}

export interface UseSignOutOptions {
  /**
   * Runs before the server ends the session: a page whose queries and live updates need the session
   * leaves first (and waits until it is unmounted), so nothing of it asks the server again without one.
   */
  leaveFirst?: () => Promise<void>;
  /** Runs after the server ended the session and before the cached user is cleared. */
  onSignedOut?: () => void | Promise<void>;
}

/** Ends the session and forgets everything cached for the signed-in user. */
export function useSignOut({ leaveFirst, onSignedOut }: UseSignOutOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: authKeys.signOut(),
    mutationFn: async () => {
      await leaveFirst?.();
      return signOut();
    },
    onSuccess: async () => {
      await onSignedOut?.();
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user: null });
    },
  });
}
