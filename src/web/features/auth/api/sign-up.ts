import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionUser, SignUpInput } from '#common/schemas/auth';
import { apiClient, isApiError } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';
import { getMe } from '#web/lib/current-user';
import { signIn } from './sign-in';

export function signUp(input: SignUpInput): Promise<unknown> {
  return apiClient.post('/api/auth/sign-up/email', { email: input.email, password: input.password });
}

/**
 * Creates the account, then signs in with the same email and password (sign-up itself never signs
 * in: it answers the same whether or not the address already has an account). The signed-in user;
 * null when that sign-in was refused: the address had an account with another password (its owner
 * got a mail), and the form says to check the inbox.
 */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignUpInput): Promise<SessionUser | null> => {
      await signUp(input);
      try {
        const res = await signIn({ email: input.email, password: input.password });
        if (res?.twoFactorRequired === true) return null;
      } catch (err) {
        if (isApiError(err) && err.status === 401) return null;
        throw err;
      }
      return (await getMe()).user;
    },
    onSuccess: (user) => {
      if (!user) return;
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user });
    },
  });
}
