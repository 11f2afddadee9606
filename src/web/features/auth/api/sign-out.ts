import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';

export function signOut(): Promise<unknown> {
  return apiClient.post('/api/auth/sign-out', {});
}

export interface UseSignOutOptions {
  /**
   * Runs once the server has ended the session, before the cached user is cleared: for a full page
   * load (the admin area's), which leaves nothing of the session in memory anyway.
   */
  onSignedOut?: () => void | Promise<void>;
  /**
   * Runs once the server has ended the session and the cached user is cleared: where the page goes
   * now (e.g. a navigation that answers once the page left is unmounted). Nothing is shown as
   * signed out while the server may still hold the session, so a /login opened next is not sent
   * back to the account. The signed-in user's cached queries are removed after it, when the pages
   * that used them are gone.
   */
  afterSignOut?: () => void | Promise<void>;
  /**
   * Deprecated: the old name of afterSignOut, kept until its callers move. It used to run before
   * the server ended the session; it now runs when afterSignOut does.
   */
  leaveFirst?: () => void | Promise<void>;
}

/**
 * Ends the session on the server, then forgets everything cached for the signed-in user. Until the
 * server answers nothing changes on the page, so a failed sign-out leaves the user where they were,
 * with the error on the mutation.
 */
export function useSignOut({ onSignedOut, afterSignOut, leaveFirst }: UseSignOutOptions = {}) {
  const queryClient = useQueryClient();
  const leave = afterSignOut ?? leaveFirst;
  return useMutation({
    mutationKey: authKeys.signOut(),
    mutationFn: signOut,
    // The mutation still counts as running while this runs, so RequireUser shows its fallback
    // (unmounting the account pages, their queries and live updates) instead of sending to /login
    // when the user is cleared.
    onSuccess: async () => {
      await onSignedOut?.();
      queryClient.setQueryData(authKeys.me(), { user: null });
      try {
        await leave?.();
      } finally {
        queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      }
    },
  });
}
