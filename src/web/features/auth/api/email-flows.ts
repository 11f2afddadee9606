import { useMutation, useQuery } from '@tanstack/react-query';
import type { EmailChangeInput, EmailStatusResponse, VerifyEmailAccount } from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';

/**
 * The account's email flows in the browser: whether the email is confirmed, a new confirmation
 * link, the account a mailed confirmation link names, and asking for an email change. One file for
 * the small calls of one flow. What the flows' pages post (the confirmation's password step, the
 * password reset, an email change's confirmation) goes through their route actions
 * (email-flow-actions.server.ts).
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

/** The account a confirmation link names (its address and when it was made): for useQuery and the page's loader. */
export function verificationAccountQueryOptions(token: string) {
  return {
    queryKey: [...authKeys.all, 'verify-email', token] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiClient.get<VerifyEmailAccount>(`/api/auth/verify-email?token=${encodeURIComponent(token)}`, {
        signal,
      }),
    retry: false,
    staleTime: Infinity,
  };
}

export function useVerificationAccount(token: string) {
  return useQuery({ ...verificationAccountQueryOptions(token), enabled: token !== '' });
}

/** Asks for a confirmation link to a new address (the email changes once it is opened). */
export function useRequestEmailChange() {
  return useMutation({
    mutationFn: (input: EmailChangeInput) => apiClient.post('/api/auth/change-email', input),
  });
}
