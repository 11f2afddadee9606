import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import {
  isNotFoundError,
  paymentView,
  RETURN_PAGE_MESSAGES,
  shouldKeepPolling,
  type PollResult,
} from './payment-polling';

const status = (s: 'pending' | 'completed' | 'failed' | 'expired', extra: object = {}): PollResult => ({
  kind: 'status',
  data: { status: s, transaction_signature: null, order_id: null, demo: false, ...extra },
});

describe('the polling rule', () => {
  it('keeps polling while nothing is known or the payment is pending', () => {
    expect(shouldKeepPolling(undefined, false, false)).toBe(true);
    expect(shouldKeepPolling(status('pending'), false, false)).toBe(true);
  });

  it('stops at once for a reference the server does not know, and says so', () => {
    expect(shouldKeepPolling({ kind: 'not-found' }, false, false)).toBe(false);
    expect(paymentView({ kind: 'not-found' }, null, false)).toEqual({
      state: 'error',
      message: RETURN_PAGE_MESSAGES.notFound,
    });
  });

  it('stops on a decided status, on any other error, and after the timeout', () => {
    expect(shouldKeepPolling(status('completed'), false, false)).toBe(false);
    expect(shouldKeepPolling(status('failed'), false, false)).toBe(false);
    expect(shouldKeepPolling(status('expired'), false, false)).toBe(false);
    expect(shouldKeepPolling(status('pending'), true, false)).toBe(false);
    expect(shouldKeepPolling(status('pending'), false, true)).toBe(false);
  });

  it("treats an error containing 'not found' as retryable", () => {
    expect(isNotFoundError(new ApiError('PAYMENT_NOT_FOUND', 'Payment not found', 404))).toBe(true);
    expect(isNotFoundError(new Error('Order Not Found'))).toBe(true);
    expect(isNotFoundError(new ApiError('VALIDATION_FAILED', 'Invalid payment reference', 400))).toBe(false);
  });
});

describe('what the return page shows', () => {
  it('confirms while waiting', () => {
    expect(paymentView(undefined, null, false)).toEqual({ state: 'confirming' });
    expect(paymentView(status('pending'), null, false)).toEqual({ state: 'confirming' });
  });

  it('succeeds with the signature or the order id', () => {
    expect(
      paymentView(
        status('completed', { order_id: 'abcdef123456', transaction_signature: 'sig' }),
        null,
        false,
      ),
    ).toEqual({
      state: 'success',
      signature: 'sig',
      orderId: 'abcdef123456',
      orderNumber: 'abcdef12',
      orderUrl: null,
      accountOrderUrl: null,
      demo: false,
    });
  });

  it('says a demo order (paid with test money) when the server says so, never otherwise', () => {
    expect(
      paymentView(status('completed', { order_id: 'abcdef123456', demo: true }), null, false),
    ).toMatchObject({ state: 'success', demo: true });
    expect(paymentView(status('completed', { order_id: 'abcdef123456' }), null, false)).toMatchObject({
      state: 'success',
      demo: false,
    });
  });

  it("names the order's number and pages when the status was asked with the access token", () => {
    const view = paymentView(
      status('completed', {
        order_id: 'abcdef123456',
        order_number: 'abcdef12',
        order_url: '/orders/abcdef123456?token=t',
        account_order_url: '/profile/orders?order=abcdef123456',
      }),
      null,
      false,
    );
    expect(view).toMatchObject({
      orderNumber: 'abcdef12',
      orderUrl: '/orders/abcdef123456?token=t',
      accountOrderUrl: '/profile/orders?order=abcdef123456',
    });
  });

  it("shows the server's message, else 'Payment not confirmed', for failed and expired payments", () => {
    expect(paymentView(status('failed', { message: 'Payment cancelled' }), null, false)).toEqual({
      state: 'error',
      message: 'Payment cancelled',
    });
    expect(paymentView(status('expired'), null, false)).toEqual({
      state: 'error',
      message: RETURN_PAGE_MESSAGES.notConfirmed,
    });
  });

  it("shows a stopping error's message, or 'Failed to verify payment' when it is not the server's", () => {
    const bad = new ApiError('VALIDATION_FAILED', 'Invalid payment reference', 400);
    expect(paymentView(undefined, bad, false)).toEqual({
      state: 'error',
      message: 'Invalid payment reference',
    });
    expect(
      paymentView(undefined, new ApiError('INTERNAL', 'Request failed (500)', 500, {}, false), false),
    ).toEqual({
      state: 'error',
      message: 'Failed to verify payment',
    });
    expect(paymentView(undefined, new TypeError('boom'), false)).toEqual({
      state: 'error',
      message: 'Failed to verify payment',
    });
  });

  it("times out after 5 minutes with 'Payment timeout. Please try again.', unless decided", () => {
    expect(paymentView(status('pending'), null, true)).toEqual({
      state: 'error',
      message: 'Payment timeout. Please try again.',
    });
    expect(paymentView(status('completed', { order_id: 'x' }), null, true).state).toBe('success');
  });
});
