import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShopInfo } from '#common/schemas/shop';
import { apiClient } from './api-client';

/** GET /api/shop (the contact address and such): loaded with every storefront page on the server. */
export function shopInfoQueryOptions() {
  return queryOptions({
    queryKey: ['shop-info'] as const,
    queryFn: ({ signal }) => apiClient.get<ShopInfo>('/api/shop', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The shop's contact address, or null (none set, or not loaded). */
export function useContactEmail(): string | null {
  return useQuery(shopInfoQueryOptions()).data?.contactEmail ?? null;
}

/** Whether mail is local (no SMTP: kept in the admin's Outbox); false until known. */
export function useLocalMail(): boolean {
  return useQuery(shopInfoQueryOptions()).data?.localMail ?? false;
}

/** The shop's token and chain (mint, cluster, whether crypto payments and sales work), once loaded. */
export function useTokenInfo(): ShopInfo['token'] | undefined {
  return useQuery(shopInfoQueryOptions()).data?.token;
}
