import { shortOrderId } from '#common/format';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { ApiError } from '#web/lib/api-client';
import { isNotFoundError, STATUS_POLL_INTERVAL_MS } from '#web/lib/use-polled-status';

/**
 * The /success page's polling rule (spec §8, §9): poll every second; 'pending' keeps polling; an
 * error stops and is shown; after 5 minutes: 'Payment timeout. Please try again.'. The spec
 * retries 'not found' because it polled the chain, where a payment shows up late; here the server
 * records every payment before the shopper is sent to pay, so a reference it does not know will
 * never appear: that is said at once, as an expired or failed payment is.
 */
export const PAYMENT_POLL_INTERVAL_MS = STATUS_POLL_INTERVAL_MS;
export const PAYMENT_TIMEOUT_MS = 5 * 60_000;

export const RETURN_PAGE_MESSAGES = {
  timeout: 'Payment timeout. Please try again.',
  notConfirmed: 'Payment not confirmed',
  verifyFailed: 'Failed to verify payment',
  notFound:
    "We can't find a payment with this reference. The link may be incomplete or the payment was never started.",
} as const;

/** One poll's outcome: the status, or "no such payment". */
export type PollResult = { kind: 'status'; data: PaymentStatusResponse } | { kind: 'not-found' };

export type PaymentView =
  | { state: 'confirming' }
  | {
      state: 'success';
      signature: string | null;
      orderId: string | null;
      /** With the checkout's access token: the order's number and pages (see PaymentStatusResponse). */
      orderNumber: string | null;
      orderUrl: string | null;
      accountOrderUrl: string | null;
      /** Paid with test money (the server's word): no shipping promise, a demo line instead. */
      demo: boolean;
    }
  | { state: 'error'; message: string };

export { isNotFoundError };

/** The message of an error that stops polling: the server's words when it sent some. */
export function pollErrorMessage(error: unknown): string {
  const fieldMessage = error instanceof ApiError ? Object.values(error.fields)[0] : undefined;
  if (fieldMessage) return fieldMessage;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.hasServerMessage) {
    return error.message;
  }
  return RETURN_PAGE_MESSAGES.verifyFailed;
}

export function shouldKeepPolling(
  result: PollResult | undefined,
  hasError: boolean,
  timedOut: boolean,
): boolean {
  if (hasError || timedOut) return false;
  return !result || (result.kind === 'status' && result.data.status === 'pending');
}

export function paymentView(result: PollResult | undefined, error: unknown, timedOut: boolean): PaymentView {
  if (error) return { state: 'error', message: pollErrorMessage(error) };
  if (result?.kind === 'not-found') return { state: 'error', message: RETURN_PAGE_MESSAGES.notFound };
  if (result?.kind === 'status') {
    const { data } = result;
    if (data.status === 'completed') {
      return {
        state: 'success',
        signature: data.transaction_signature,
        orderId: data.order_id,
        orderNumber: data.order_number ?? (data.order_id ? shortOrderId(data.order_id) : null),
        orderUrl: data.order_url ?? null,
        accountOrderUrl: data.account_order_url ?? null,
        demo: data.demo === true,
      };
    }
    if (data.status === 'failed' || data.status === 'expired') {
      return { state: 'error', message: data.message || RETURN_PAGE_MESSAGES.notConfirmed };
    }
  }
  if (timedOut) return { state: 'error', message: RETURN_PAGE_MESSAGES.timeout };
  return { state: 'confirming' };
}
