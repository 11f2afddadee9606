import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionUser, SignInInput } from '#common/schemas/auth';
import { apiClient } from '#web/lib/api-client';
import { authKeys } from '#web/lib/auth-keys';
import { getMe } from '#web/lib/current-user';

export function signIn(input: SignInInput): Promise<unknown> {
  return apiClient.post('/api/auth/sign-in/email', { email: input.email, password: input.password });
}

/** Signs in, then reloads the current user so every screen sees the new session. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignInInput): Promise<SessionUser | null> => {
      await signIn(input);
      const me = await getMe();
      return me.user;
    },
    onSuccess: (user) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), { user });
    },
  });
}
