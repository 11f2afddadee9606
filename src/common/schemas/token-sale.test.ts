import { describe, expect, it } from 'vitest';
import {
  isPurchaseAmountPayable,
  nextPurchaseAmount,
  purchaseAmountError,
  TOKEN_PURCHASE_MESSAGES,
} from '../token-purchase-amount';
import { TokenPurchaseInputSchema } from './token-sale';

describe('Buy Token amount (spec §5)', () => {
  it('keeps only digits and one dot, with at most 2 decimals; other input is ignored', () => {
    expect(nextPurchaseAmount('12a3', '12')).toBe('123');
    expect(nextPurchaseAmount('$1,000', '')).toBe('1000');
    expect(nextPurchaseAmount('10.5', '10.')).toBe('10.5');
    expect(nextPurchaseAmount('10.55', '10.5')).toBe('10.55');
    expect(nextPurchaseAmount('10.555', '10.55')).toBe('10.55');
    expect(nextPurchaseAmount('10.5.', '10.5')).toBe('10.5');
    expect(nextPurchaseAmount('-5', '')).toBe('5');
    expect(nextPurchaseAmount('', '100')).toBe('');
  });

  it('says below 10 and above 50,000 in the spec words; nothing while empty', () => {
    expect(purchaseAmountError('9.99')).toBe(TOKEN_PURCHASE_MESSAGES.min);
    expect(purchaseAmountError('0')).toBe('Minimum purchase amount is $10');
    expect(purchaseAmountError('50000.01')).toBe('Maximum purchase amount is $50,000');
    expect(purchaseAmountError('10')).toBeNull();
    expect(purchaseAmountError('50000')).toBeNull();
    expect(purchaseAmountError('')).toBeNull();
  });

  it('the pay button is off on error, empty, or under 10', () => {
    expect(isPurchaseAmountPayable('')).toBe(false);
    expect(isPurchaseAmountPayable('.')).toBe(false);
    expect(isPurchaseAmountPayable('9')).toBe(false);
    expect(isPurchaseAmountPayable('60000')).toBe(false);
    expect(isPurchaseAmountPayable('10.')).toBe(false);
    expect(isPurchaseAmountPayable('10')).toBe(true);
    expect(isPurchaseAmountPayable('100.25')).toBe(true);
  });

  it('the server schema holds the same rules', () => {
    expect(TokenPurchaseInputSchema.safeParse({ amountUsd: '100' }).success).toBe(true);
    expect(TokenPurchaseInputSchema.safeParse({ amountUsd: '100.255' }).success).toBe(false);
    const low = TokenPurchaseInputSchema.safeParse({ amountUsd: '5' });
    expect(low.success ? null : low.error.issues[0]?.message).toBe(TOKEN_PURCHASE_MESSAGES.min);
    expect(TokenPurchaseInputSchema.safeParse({ amountUsd: 100 }).success).toBe(false);
  });
});
