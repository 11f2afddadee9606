import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { checkoutErrorMessage } from './checkout-error';

describe('checkoutErrorMessage', () => {
  it("shows the server's error text", () => {
    expect(checkoutErrorMessage(new ApiError('OUT_OF_STOCK', 'Only 1 left of Align Legging', 409))).toBe(
      'Only 1 left of Align Legging',
    );
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
