import { useQuery } from '@tanstack/react-query';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { checkoutKeys } from '../api/checkout-keys';
import { getPaymentStatus } from '../api/get-payment-status';
import { isNotFoundError, PAYMENT_POLL_INTERVAL_MS, pollErrorMessage } from '../utils/payment-polling';

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
  const query = useQuery({
    queryKey: checkoutKeys.paymentStatus(reference ?? ''),
    queryFn: async ({ signal }): Promise<PaymentStatusResponse | null> => {
      try {
        return await getPaymentStatus(reference ?? '', signal);
      } catch (error) {
        if (isNotFoundError(error)) return null;
        throw error;
      }
    },
    enabled: Boolean(reference),
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchIntervalInBackground: true,
    refetchInterval: (q) =>
      q.state.status === 'error' || (q.state.data && q.state.data.status !== 'pending')
        ? false
        : PAYMENT_POLL_INTERVAL_MS,
  });
  if (query.error) return { state: 'error', message: pollErrorMessage(query.error) };
  const data = query.data;
  if (!data || data.status === 'pending') return { state: 'waiting', message: data?.message ?? null };
  if (data.status === 'completed') return { state: 'completed', data };
  return { state: 'ended', data };
}
