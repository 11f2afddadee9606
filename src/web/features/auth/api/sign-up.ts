import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionUser, SignUpInput } from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';
import { getMe } from '#web/lib/current-user';
import { signIn } from './sign-in';

export function signUp(input: SignUpInput): Promise<unknown> {
  return apiClient.post('/api/auth/sign-up/email', { email: input.email, password: input.password });
}

/** Creates the account and signs it in, then reloads the current user. */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignUpInput): Promise<SessionUser | null> => {
      await signUp(input);
      let me = await getMe();
      // A new account is normally signed in straight away; if the server did not, sign in now.
      if (!me.user) {
        await signIn({ email: input.email, password: input.password });
        me = await getMe();
      }
      return me.user;
    },
    onSuccess: (user) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user });
    },
  });
}
