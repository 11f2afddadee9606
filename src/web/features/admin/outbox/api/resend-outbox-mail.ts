import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_OUTBOX_API, type OutboxMailSummary } from '#common/schemas/admin-outbox';
import { apiClient } from '#web/lib/api-client';
import { outboxKeys } from './get-outbox';

/** POST /api/admin/outbox/:id/resend: a failed mail goes back to the queue ("Send again"). */
export function resendOutboxMail(id: string): Promise<OutboxMailSummary> {
  return apiClient.post<OutboxMailSummary>(ADMIN_OUTBOX_API.resend(id));
}

export function useResendOutboxMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendOutboxMail,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: outboxKeys.all });
    },
  });
}
