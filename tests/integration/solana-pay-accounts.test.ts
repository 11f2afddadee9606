/**
 * A Solana Pay transaction request names the paying `account`; one that can never pay (the shop's
 * treasury, its receiving wallet, a program, a sysvar, a program-derived address) is the wallet's
 * error: 400 with a message, never a 500, on both endpoints (checkout payments and Buy Token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenPurchaseResponse } from '#common/schemas/token-sale';
import { CHECKOUT_LIMITS, api, cryptoCheckout } from '../helpers/crypto-checkout';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startShop, stopShop, type RunningShop } from '../helpers/shop-server';

const PROGRAMS = [
  '11111111111111111111111111111111', // System
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', // Token
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL', // Associated Token
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', // Memo
  'SysvarRent111111111111111111111111111111111', // a sysvar
];

warnIfPostgresSkipped();

describe.each(BACKENDS)('Solana Pay transaction requests on %s', (backend) => {
  let shop: RunningShop;
  let treasury: string;
  let shopWallet: string;
  /** A program-derived address (the liquidity pool's owner): no key signs for it. */
  let derived: string;

  beforeAll(async () => {
    shop = await startShop({ backend, env: { ...CHECKOUT_LIMITS, TOKEN_PURCHASE_RATE_LIMIT: '1000' } });
    const { setup } = await shop.t.deps.localChain!.get();
    treasury = setup.treasury.address;
    shopWallet = setup.shopWallet;
    derived = setup.liquidityPoolOwner;
  }, 60_000);
  afterAll(() => stopShop(shop));

  async function expectRefused(path: string, account: string) {
    const res = await api<{ error: { code: string; message: string } }>(shop, 'POST', path, { account });
    expect(res.status, `${account}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    const expected =
      account === treasury || account === shopWallet
        ? "account: This is one of the shop's own accounts; pay from your own wallet"
        : account === derived
          ? 'account: This address cannot sign a transaction; pay from your own wallet'
          : 'account: This is a program, not a wallet; pay from your own wallet';
    expect(res.body.error.message).toBe(expected);
  }

  it('a checkout payment refuses the treasury, the shop wallet and programs as the paying account', async () => {
    for (const method of ['sol', 'aelo'] as const) {
      const started = await cryptoCheckout(shop, method);
      const path = `/api/solana-pay/payments/${started.reference}`;
      for (const account of [treasury, shopWallet, derived, ...PROGRAMS]) await expectRefused(path, account);
    }
  });

  it('a token purchase refuses the treasury, the shop wallet and programs as the buyer', async () => {
    const res = await api<TokenPurchaseResponse>(shop, 'POST', '/api/token-purchases', { amountUsd: '100' });
    expect(res.status).toBe(201);
    const path = `/api/solana-pay/token-purchases/${res.body.reference}`;
    for (const account of [treasury, shopWallet, derived, ...PROGRAMS]) await expectRefused(path, account);
  });
});
