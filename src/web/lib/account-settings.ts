import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProfileSettings, ProfileSettingsInput } from '#common/schemas/account-settings';
import { apiClient } from './api-client';
import { useCurrentUser } from './current-user';

/**
 * The signed-in customer's saved profile settings (GET/PUT /api/account/settings). Shared: the
 * Settings page edits them and checkout prefills the shipping form from them.
 */
export const accountSettingsKey = ['account-settings'] as const;

/** Loaded only for a signed-in user; keyed by the user so another account never sees them. */
export function useAccountSettings() {
  const { user } = useCurrentUser();
  return useQuery({
    queryKey: [...accountSettingsKey, user?.id ?? null],
    queryFn: ({ signal }) => apiClient.get<ProfileSettings>('/api/account/settings', { signal }),
    enabled: Boolean(user),
    staleTime: 60_000,
  });
}

export function useSaveAccountSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileSettingsInput) =>
      apiClient.put<ProfileSettings>('/api/account/settings', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSettingsKey }),
  });
}
