import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminMessage, type MessagePriority } from '#common/schemas/admin-messages';
import { apiClient } from '#web/lib/api-client';
import { messageKeys } from './messages-keys';
import { replaceMessage } from './replace-message';

/** PATCH /api/admin/messages/:id/priority: low, normal or high, freely. */
export function updateMessagePriority({
  id,
  priority,
}: {
  id: string;
  priority: MessagePriority;
}): Promise<AdminMessage> {
  return apiClient.patch<AdminMessage>(ADMIN_API.messagePriority(id), { priority });
}

export function useUpdateMessagePriority() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMessagePriority,
    onSuccess: async (message) => {
      replaceMessage(queryClient, message);
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
    },
  });
}
