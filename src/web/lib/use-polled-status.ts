import { useQuery, type QueryKey } from '@tanstack/react-query';

/** Spec §9: payment status is polled every second. */
export const STATUS_POLL_INTERVAL_MS = 1_000;

/** Spec §8 polling rule: an error whose text contains 'not found' is retried; any other stops. */
export function isNotFoundError(error: unknown): boolean {
  return error instanceof Error && error.message.toLowerCase().includes('not found');
}

/**
 * The spec's polling rule (§8) for something the server decides (a crypto payment, a token
 * purchase): asked every second, also in a background tab; a 'not found' answer reads as null and
 * is asked again; any other error stops; polling ends once `isSettled` says the answer is final.
 * `request` is the feature's fetcher for that endpoint, made with apiClient (the web's only fetch).
 */
export function usePolledStatus<T>(options: {
  queryKey: QueryKey;
  request: (signal: AbortSignal) => Promise<T>;
  enabled: boolean;
  isSettled: (data: T) => boolean;
}) {
  const { queryKey, request, enabled, isSettled } = options;
  return useQuery({
    queryKey,
    queryFn: async ({ signal }): Promise<T | null> => {
      try {
        return await request(signal);
      } catch (error) {
        if (isNotFoundError(error)) return null;
        throw error;
      }
    },
    enabled,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchIntervalInBackground: true,
    refetchInterval: (q) =>
      q.state.status === 'error' || (q.state.data != null && isSettled(q.state.data))
        ? false
        : STATUS_POLL_INTERVAL_MS,
  });
}
