import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GuestOrder } from '#common/schemas/guest-order';
import { apiClient } from '#web/lib/api-client';

export const guestOrderKeys = {
  all: ['guest-order'] as const,
  detail: (id: string, token: string) => [...guestOrderKeys.all, id, token] as const,
};

/** GET /api/guest-orders/:id?token=: one order, by the signed link of its mail. */
export function getGuestOrder(id: string, token: string, signal?: AbortSignal): Promise<GuestOrder> {
  return apiClient.get<GuestOrder>(`/api/guest-orders/${encodeURIComponent(id)}`, {
    query: { token },
    signal,
  });
}

/** The order of a mail's signed link; the server renders the page with it (routes/storefront/guest-order). */
export function guestOrderQueryOptions(id: string, token: string) {
  return queryOptions({
    queryKey: guestOrderKeys.detail(id, token),
    queryFn: ({ signal }) => getGuestOrder(id, token, signal),
    retry: false,
    // The page stays open while an order ships: look again now and then.
    refetchInterval: 60_000,
  });
}

export function useGuestOrder(id: string, token: string) {
  return useQuery(guestOrderQueryOptions(id, token));
}
