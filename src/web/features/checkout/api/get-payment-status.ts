import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { apiClient } from '#web/lib/api-client';

/**
 * GET /api/payments/:reference/status (the spec's payment-status call). With the checkout's access
 * token (`?token=`) a paid status also names the order: its number and its pages.
 */
export function getPaymentStatus(
  reference: string,
  token?: string | null,
  signal?: AbortSignal,
): Promise<PaymentStatusResponse> {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return apiClient.get<PaymentStatusResponse>(
    `/api/payments/${encodeURIComponent(reference)}/status${query}`,
    { signal },
  );
}
