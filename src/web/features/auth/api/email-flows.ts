import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  EmailChangeConfirm,
  EmailChangeInput,
  EmailStatusResponse,
  SessionUser,
  VerifyEmailAccount,
  VerifyEmailInput,
  VerifyEmailResponse,
} from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';
import { getMe } from '#web/lib/current-user';

/**
 * The account's email flows: whether the email is confirmed, a new confirmation link, confirming
 * with a mailed link (the account it names, then the password step), and the password reset. One
 * file for the small calls of one flow.
 */

export function getEmailStatus(signal?: AbortSignal): Promise<EmailStatusResponse> {
  return apiClient.get<EmailStatusResponse>('/api/auth/email-verification', { signal });
}

/**
 * For useQuery and the server's prefetch. A plain object: TanStack's `queryOptions` would be one
 * more export of the landing page's entry chunk.
 */
export function emailStatusQueryOptions() {
  return {
    queryKey: [...authKeys.all, 'email-status'] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getEmailStatus(signal),
    staleTime: 30_000,
  };
}

export function useEmailStatus(enabled = true) {
  return useQuery({ ...emailStatusQueryOptions(), enabled });
}

export function useResendVerification() {
  return useMutation({ mutationFn: () => apiClient.post('/api/auth/email-verification/resend', {}) });
}

/** The account a confirmation link names (its address and when it was made). */
export function useVerificationAccount(token: string) {
  return useQuery({
    queryKey: [...authKeys.all, 'verify-email', token],
    queryFn: ({ signal }) =>
      apiClient.get<VerifyEmailAccount>(`/api/auth/verify-email?token=${encodeURIComponent(token)}`, {
        signal,
      }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/**
 * Confirms the address with the password step. Every earlier session of the account ends; when
 * the answer says signed in, this browser has the new session: the current user is reloaded.
 */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      input: VerifyEmailInput,
    ): Promise<{ result: VerifyEmailResponse; user: SessionUser | null }> => {
      const result = await apiClient.post<VerifyEmailResponse>('/api/auth/verify-email', input);
      return { result, user: result.signedIn ? (await getMe()).user : null };
    },
    onSuccess: ({ user }) => {
      // Whatever this browser held belonged to a session that no longer exists.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user });
      void queryClient.invalidateQueries({ queryKey: [...authKeys.all, 'email-status'] });
    },
  });
}

/** Asks for a confirmation link to a new address (the email changes once it is opened). */
export function useRequestEmailChange() {
  return useMutation({
    mutationFn: (input: EmailChangeInput) => apiClient.post('/api/auth/change-email', input),
  });
}

export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailChangeConfirm) => apiClient.post('/api/auth/change-email/confirm', input),
    // The email is part of the session's user, the account's status and the saved settings.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) => apiClient.post('/api/auth/forgot-password', { email }),
  });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; password: string }) =>
      apiClient.post('/api/auth/reset-password', input),
    // Every session ends with a reset: this browser is signed out too.
    onSuccess: () => queryClient.setQueryData(authKeys.me(), { user: null }),
  });
}
