import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { apiClient } from '#web/lib/api-client';

/** GET /api/payments/:reference/status (the spec's payment-status call). */
export function getPaymentStatus(reference: string, signal?: AbortSignal): Promise<PaymentStatusResponse> {
  return apiClient.get<PaymentStatusResponse>(`/api/payments/${encodeURIComponent(reference)}/status`, {
    signal,
  });
}
