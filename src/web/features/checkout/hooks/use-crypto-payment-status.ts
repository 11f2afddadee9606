import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { usePolledStatus } from '#web/lib/use-polled-status';
import { checkoutKeys } from '../api/checkout-keys';
import { getPaymentStatus } from '../api/get-payment-status';
import { pollErrorMessage } from '../utils/payment-polling';

export type CryptoStatusView =
  | { state: 'waiting'; message: string | null }
  | { state: 'completed'; data: PaymentStatusResponse }
  | { state: 'ended'; data: PaymentStatusResponse }
  | { state: 'error'; message: string };

/**
 * Follows a crypto payment's status on the server every second (spec §8 polling rule): an error
 * containing 'not found' is retried, any other stops and is shown. The server alone decides paid.
 */
export function useCryptoPaymentStatus(reference: string | null): CryptoStatusView {
  const query = usePolledStatus({
    queryKey: checkoutKeys.paymentStatus(reference ?? ''),
    fetch: (signal) => getPaymentStatus(reference ?? '', signal),
    enabled: Boolean(reference),
    isSettled: (data) => data.status !== 'pending',
  });
  if (query.error) return { state: 'error', message: pollErrorMessage(query.error) };
  const data = query.data;
  if (!data || data.status === 'pending') return { state: 'waiting', message: data?.message ?? null };
  if (data.status === 'completed') return { state: 'completed', data };
  return { state: 'ended', data };
}
