import { useQuery } from '@tanstack/react-query';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { isNotFoundError, STATUS_POLL_INTERVAL_MS } from '#web/lib/use-polled-status';
import { checkoutKeys } from '../api/checkout-keys';
import { getPaymentStatus } from '../api/get-payment-status';
import { pollErrorMessage, RETURN_PAGE_MESSAGES } from '../utils/payment-polling';

/** What arrived so far toward the amount due (part payments add up on the server). */
export type ReceivedSoFar = NonNullable<PaymentStatusResponse['received']>;
export type RefundView = NonNullable<PaymentStatusResponse['refunds']>[number];

export type CryptoStatusView =
  | { state: 'waiting'; message: string | null; received: ReceivedSoFar | null }
  | { state: 'completed'; data: PaymentStatusResponse }
  | {
      state: 'ended';
      data: PaymentStatusResponse;
      /** The words to show: the spec's timeout when nothing was paid, else the server's own. */
      message: string;
      /** Nothing arrived and nothing is refunded: a plain timeout, pay again. */
      isTimeout: boolean;
    }
  | { state: 'error'; message: string };

/**
 * How long a crypto payment's status is still followed after its 5 minutes end: a payment sent at
 * the last moment (or late) is decided by the server afterwards, as an order (paid late while the
 * items could still be held) or a refund; the open page shows that instead of a stale timeout.
 */
export const LATE_FOLLOW_MS = 10 * 60_000;
/** After the payment's time, the status is asked less often. */
export const LATE_POLL_INTERVAL_MS = 3_000;

export interface FollowedPayment {
  reference: string;
  accessToken: string | null;
  expiresAt: string;
}

/** The view of one status answer (pure; the hook below asks the server). */
export function cryptoStatusView(data: PaymentStatusResponse | null | undefined): CryptoStatusView {
  if (!data || data.status === 'pending') {
    return { state: 'waiting', message: data?.message ?? null, received: data?.received ?? null };
  }
  if (data.status === 'completed') return { state: 'completed', data };
  const isTimeout = data.status === 'expired' && !data.received && (data.refunds?.length ?? 0) === 0;
  const message = isTimeout
    ? RETURN_PAGE_MESSAGES.timeout
    : data.message || (data.status === 'expired' ? RETURN_PAGE_MESSAGES.timeout : 'Payment failed');
  return { state: 'ended', data, message, isTimeout };
}

/**
 * Follows a crypto payment's status on the server every second (spec §8 polling rule): an error
 * containing 'not found' is retried, any other stops and is shown. The server alone decides paid.
 * Expired or failed is not the last word for a while (LATE_FOLLOW_MS): a late payment can still
 * turn it into an order (completed) or a refund (failed, with `refunds`).
 */
export function useCryptoPaymentStatus(payment: FollowedPayment | null): CryptoStatusView {
  const query = useQuery({
    queryKey: checkoutKeys.paymentStatus(payment?.reference ?? '', payment?.accessToken ?? null),
    queryFn: async ({ signal }): Promise<PaymentStatusResponse | null> => {
      try {
        return await getPaymentStatus(payment?.reference ?? '', payment?.accessToken, signal);
      } catch (error) {
        if (isNotFoundError(error)) return null;
        throw error;
      }
    },
    enabled: Boolean(payment),
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchIntervalInBackground: true,
    refetchInterval: (q) => {
      const data = q.state.data;
      if (q.state.status === 'error' || data?.status === 'completed') return false;
      if (!data || data.status === 'pending') return STATUS_POLL_INTERVAL_MS;
      const followUntil = Date.parse(payment?.expiresAt ?? '') + LATE_FOLLOW_MS;
      return Date.now() < followUntil ? LATE_POLL_INTERVAL_MS : false;
    },
  });
  if (query.error) return { state: 'error', message: pollErrorMessage(query.error) };
  return cryptoStatusView(query.data);
}
