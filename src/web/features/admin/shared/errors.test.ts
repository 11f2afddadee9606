import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { serverMessage } from './errors';

describe('serverMessage', () => {
  it("prefers the message of the server's error body", () => {
    const error = new ApiError('NOT_CONFIGURED', 'No airdrop engine is configured', 503);
    expect(serverMessage(error, 'Failed to process airdrop')).toBe('No airdrop engine is configured');
  });

  it('falls back when the server gave no message', () => {
    const fallback = 'Failed to process airdrop';
    expect(serverMessage(new ApiError('INTERNAL', 'Request failed (502)', 502), fallback)).toBe(fallback);
    expect(serverMessage(new ApiError('INTERNAL', '', 500), fallback)).toBe(fallback);
    expect(serverMessage(new ApiError('NETWORK_ERROR', 'Could not reach the shop.', 0), fallback)).toBe(
      fallback,
    );
    expect(serverMessage(new TypeError('boom'), fallback)).toBe(fallback);
  });
});
