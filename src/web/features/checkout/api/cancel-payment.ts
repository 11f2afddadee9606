import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { apiClient } from '#web/lib/api-client';

/**
 * POST /api/payments/:reference/cancel: the shopper left the card page; the server expires the
 * provider's session and releases the reserved stock (when still pending). Answers the status.
 */
export function cancelPayment(reference: string): Promise<PaymentStatusResponse> {
  return apiClient.post<PaymentStatusResponse>(`/api/payments/${encodeURIComponent(reference)}/cancel`);
}
