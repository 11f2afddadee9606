import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MeResponse, SessionUser } from '#common/schemas/auth';
import { apiClient } from './api-client';
import { authKeys } from './auth-keys';

/** Spec §8 "Auth": shown when the signed-in user could not be loaded. */
export const LOAD_USER_ERROR = 'Failed to load user';

export function getMe(signal?: AbortSignal): Promise<MeResponse> {
  return apiClient.get<MeResponse>('/api/auth/me', { signal });
}

/** The signed-in user, loaded once when the app starts and replaced on sign-in and sign-out. */
export function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => getMe(signal),
    staleTime: Infinity,
  });
}

export function useMe() {
  return useQuery(meQueryOptions());
}

/** The user, or null when signed out; undefined while the first check is still loading. */
export function useCurrentUser(): {
  user: SessionUser | null | undefined;
  isLoading: boolean;
  error: Error | null;
} {
  const query = useMe();
  if (query.isPending) return { user: undefined, isLoading: true, error: null };
  if (query.isError) return { user: null, isLoading: false, error: query.error };
  return { user: query.data.user, isLoading: false, error: null };
}
