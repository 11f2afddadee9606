import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminMessage, type MessageStatus } from '#common/schemas/admin-messages';
import { apiClient } from '#web/lib/api-client';
import { messageKeys } from './messages-keys';
import { replaceMessage } from './replace-message';

/** PATCH /api/admin/messages/:id/status: unread -> read -> archived (409 from archived). */
export function updateMessageStatus({
  id,
  status,
}: {
  id: string;
  status: MessageStatus;
}): Promise<AdminMessage> {
  return apiClient.patch<AdminMessage>(ADMIN_API.messageStatus(id), { status });
}

export function useUpdateMessageStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMessageStatus,
    onSuccess: async (message) => {
      replaceMessage(queryClient, message);
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
    },
  });
}
