import { useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AirdropProcessResult } from '#common/schemas/admin-airdrops';
import { apiClient } from '#web/lib/api-client';
import { airdropKeys } from './airdrops-keys';

/** GET /api/admin/airdrops/preview: what 'Process Airdrop' would pay now (503 without an engine). */
export function getAirdropPreview(signal?: AbortSignal): Promise<AirdropProcessResult> {
  return apiClient.get<AirdropProcessResult>(ADMIN_API.airdropPreview, { signal });
}

/** Fetched fresh each time the confirmation opens: the holders move between two runs. */
export function useAirdropPreview(enabled: boolean) {
  return useQuery({
    queryKey: airdropKeys.preview(),
    queryFn: ({ signal }) => getAirdropPreview(signal),
    enabled,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}
