import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import { checkoutErrorMessage } from './checkout-error';

describe('checkoutErrorMessage', () => {
  it("shows the server's error text", () => {
    expect(checkoutErrorMessage(new ApiError('OUT_OF_STOCK', 'Only 1 left of Align Legging', 409))).toBe(
      'Only 1 left of Align Legging',
    );
  });

  it('shows a refused field by its message alone (a hold limit, a common password)', () => {
    const limit = 'A checkout can hold at most 10 items. Please check out the rest separately.';
    expect(
      checkoutErrorMessage(new ApiError('VALIDATION_FAILED', `items: ${limit}`, 400, { items: limit })),
    ).toBe(limit);
    const common = 'This password is too common. Choose another.';
    expect(
      checkoutErrorMessage(
        new ApiError('VALIDATION_FAILED', `createAccount.password: ${common}`, 400, {
          'createAccount.password': common,
        }),
      ),
    ).toBe(common);
  });

  it("falls back to 'Failed to create checkout session' when the server gives no reason", () => {
    expect(checkoutErrorMessage(new ApiError('INTERNAL', 'Something went wrong', 500))).toBe(
      'Failed to create checkout session',
    );
    expect(checkoutErrorMessage(new ApiError('UNAVAILABLE', 'Request failed (502)', 502, {}, false))).toBe(
      'Failed to create checkout session',
    );
  });

  it("says 'Failed to process payment' for an error in the browser", () => {
    expect(checkoutErrorMessage(new TypeError('Invalid URL'))).toBe('Failed to process payment');
    expect(checkoutErrorMessage(undefined)).toBe('Failed to process payment');
  });
});
