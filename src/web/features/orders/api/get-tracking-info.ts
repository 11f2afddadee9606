import { useQuery } from '@tanstack/react-query';
import type { TrackingInfo } from '#common/schemas/tracking';
import { apiClient } from '#web/lib/api-client';

/**
 * POST /api/tracking-info for one of the customer's tracking numbers (spec §7: called for every
 * order with a tracking number after load; failures only logged).
 */
export function useTrackingInfo(trackingNumber: string | null) {
  return useQuery({
    queryKey: ['orders', 'tracking', trackingNumber],
    queryFn: async ({ signal }) => {
      try {
        return await apiClient.post<TrackingInfo>('/api/tracking-info', { trackingNumber }, { signal });
      } catch (error) {
        if (!signal.aborted) console.warn('Tracking status could not be loaded', error);
        return null;
      }
    },
    enabled: trackingNumber !== null,
    staleTime: 10 * 60_000,
    retry: false,
  });
}
