import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionUser, SignInInput } from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';
import { getMe } from '#web/lib/current-user';

export function signIn(input: SignInInput): Promise<{ twoFactorRequired?: boolean } | null> {
  return apiClient.post('/api/auth/sign-in/email', {
    email: input.email,
    password: input.password,
    // The code mailed when the server asked for one (SIGN_IN_CODE_REQUIRED).
    ...(input.code ? { code: input.code } : {}),
  });
}

/** Signed in (the user), or the password was right and a two-factor code comes next. */
export type SignInOutcome =
  { user: SessionUser | null; twoFactorRequired: false } | { user: null; twoFactorRequired: true };

/** Signs in, then reloads the current user so every screen sees the new session. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignInInput): Promise<SignInOutcome> => {
      const res = await signIn(input);
      if (res?.twoFactorRequired === true) return { user: null, twoFactorRequired: true };
      const me = await getMe();
      return { user: me.user, twoFactorRequired: false };
    },
    onSuccess: (outcome) => {
      if (outcome.twoFactorRequired) return;
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user: outcome.user });
    },
  });
}
