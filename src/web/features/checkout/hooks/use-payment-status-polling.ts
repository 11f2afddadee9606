import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { checkoutKeys } from '../api/checkout-keys';
import { getPaymentStatus } from '../api/get-payment-status';
import {
  isNotFoundError,
  PAYMENT_POLL_INTERVAL_MS,
  PAYMENT_TIMEOUT_MS,
  paymentView,
  shouldKeepPolling,
  type PaymentView,
  type PollResult,
} from '../utils/payment-polling';

/** Polls a payment's status every second until it is decided, fails, or 5 minutes pass. */
export function usePaymentStatusPolling(reference: string | null, token: string | null = null): PaymentView {
  const [timedOut, setTimedOut] = useState(false);

  useEffect(() => {
    if (!reference) return;
    const timer = setTimeout(() => setTimedOut(true), PAYMENT_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [reference]);

  const query = useQuery({
    queryKey: checkoutKeys.paymentStatus(reference ?? '', token),
    queryFn: async ({ signal }): Promise<PollResult> => {
      try {
        return { kind: 'status', data: await getPaymentStatus(reference ?? '', token, signal) };
      } catch (error) {
        if (isNotFoundError(error)) return { kind: 'not-found' };
        throw error;
      }
    },
    enabled: Boolean(reference) && !timedOut,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchIntervalInBackground: true,
    refetchInterval: (q) =>
      shouldKeepPolling(q.state.data, q.state.status === 'error', timedOut)
        ? PAYMENT_POLL_INTERVAL_MS
        : false,
  });

  return paymentView(query.data, query.error, timedOut);
}
