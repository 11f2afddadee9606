import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AirdropProcessResult } from '#common/schemas/admin-airdrops';
import { apiClient } from '#web/lib/api-client';
import { airdropKeys } from './airdrops-keys';

/** POST /api/admin/airdrops/process: runs the rewards engine once (503 when none is configured). */
export function processAirdrop(): Promise<AirdropProcessResult> {
  return apiClient.post<AirdropProcessResult>(ADMIN_API.processAirdrop, {});
}

export function useProcessAirdrop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: processAirdrop,
    onSettled: () => queryClient.invalidateQueries({ queryKey: airdropKeys.all }),
  });
}
