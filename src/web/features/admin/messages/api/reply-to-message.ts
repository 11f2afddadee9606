import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SUPPORT_API, type AdminMessageThread } from '#common/schemas/support-threads';
import { apiClient } from '#web/lib/api-client';
import { messageKeys } from './messages-keys';
import { replaceMessage } from './replace-message';

/** POST /api/admin/messages/:id/replies: the admin's answer (mailed to the sender; unread -> read). */
export function replyToMessage({ id, body }: { id: string; body: string }): Promise<AdminMessageThread> {
  return apiClient.post<AdminMessageThread>(SUPPORT_API.adminReplies(id), { body });
}

export function useReplyToMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replyToMessage,
    onSuccess: async (thread) => {
      queryClient.setQueryData(messageKeys.thread(thread.message.id), thread);
      replaceMessage(queryClient, thread.message);
      await queryClient.invalidateQueries({ queryKey: messageKeys.lists() });
    },
  });
}
