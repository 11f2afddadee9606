import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SUPPORT_API, type MessageReply } from '#common/schemas/support-threads';
import { apiClient } from '#web/lib/api-client';
import { ticketKeys } from './tickets';

/** POST /api/tickets/:id/replies: a follow-up under the customer's own ticket (unread again for the shop). */
export function replyToTicket({ id, body }: { id: string; body: string }): Promise<MessageReply> {
  return apiClient.post<MessageReply>(SUPPORT_API.ticketReplies(id), { body });
}

export function useReplyToTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replyToTicket,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.all }),
  });
}
