/**
 * Crypto checkout from a test's side, as a shopper's wallet does it: start a checkout through the
 * API, pay its Solana Pay transfer request with unmodified @solana/pay and @solana/web3.js on the
 * local ledger, and follow the payment's status.
 */
import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { Keypair, sendAndConfirmTransaction, type Connection, type PublicKey } from '@solana/web3.js';
import type BigNumber from 'bignumber.js';
import { expect, vi } from 'vitest';
import type { CheckoutResponse, PaymentStatusResponse } from '#common/schemas/checkout';
import { checkout } from '../factories/checkout';
import type { RunningShop } from './shop-server';
import { TEST_ORIGIN } from './test-app';

/** Many checkouts from one test client: the hold and rate limits are not what is tested here. */
export const CHECKOUT_LIMITS = {
  CHECKOUT_RATE_LIMIT: '1000',
  CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
  CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '1000',
};

export async function api<T>(
  shop: { url: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${shop.url}${path}`, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export type StartedCryptoCheckout = CheckoutResponse & {
  crypto: NonNullable<CheckoutResponse['crypto']>;
  productId: string;
};

/** A crypto checkout of one new product (5 in stock) priced `priceCents`. */
export async function cryptoCheckout(
  shop: RunningShop,
  method: 'sol' | 'aelo',
  options: { priceCents?: number; quantity?: number; stock?: number; cartId?: string } = {},
): Promise<StartedCryptoCheckout> {
  const { product, ...started } = await checkout(shop, {
    paymentMethod: method,
    product: { priceCents: options.priceCents ?? 2_000, quantity: options.stock ?? 5 },
    quantity: options.quantity,
    cartId: options.cartId,
  });
  expect(started.crypto).toBeDefined();
  return { ...started, crypto: started.crypto!, productId: product.id };
}

export async function paymentStatus(
  shop: { url: string },
  reference: string,
  token?: string,
): Promise<PaymentStatusResponse> {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return (await api<PaymentStatusResponse>(shop, 'GET', `/api/payments/${reference}/status${query}`)).body;
}

/** Polls the status until `done` says so (or `wanted` is reached); throws with the last status. */
export async function waitForStatus(
  shop: { url: string },
  reference: string,
  wanted: PaymentStatusResponse['status'] | ((status: PaymentStatusResponse) => boolean),
  ms = 10_000,
): Promise<PaymentStatusResponse> {
  const done = typeof wanted === 'function' ? wanted : (s: PaymentStatusResponse) => s.status === wanted;
  return vi.waitFor(
    async () => {
      const current = await paymentStatus(shop, reference);
      if (!done(current)) throw new Error(`payment ${reference} stayed ${JSON.stringify(current)}`);
      return current;
    },
    { timeout: ms, interval: 100 },
  );
}

/** Pays a transfer request URL as a Solana Pay wallet does (optionally changing what it asks). */
export async function payTransferRequest(
  connection: Connection,
  payer: Keypair,
  url: string,
  change: Partial<{ amount: BigNumber; recipient: PublicKey; references: PublicKey[] }> = {},
): Promise<string> {
  const request = parseURL(url) as TransferRequestURL;
  const tx = await createTransfer(connection, payer.publicKey, {
    recipient: change.recipient ?? request.recipient,
    amount: change.amount ?? request.amount!,
    ...(request.splToken ? { splToken: request.splToken } : {}),
    reference: change.references ?? request.reference!,
  });
  return sendAndConfirmTransaction(connection, tx, [payer], { commitment: 'confirmed' });
}

/** The local ledger's demo shopper (100 SOL, 5,000,000 AELO), from the shop's demo-wallet endpoint. */
export async function demoShopper(shop: { url: string }): Promise<Keypair> {
  const wallet = await api<{ secretKey: number[] }>(shop, 'GET', '/api/chain/demo-wallet');
  return Keypair.fromSecretKey(Uint8Array.from(wallet.body.secretKey));
}

export async function ordersOfPayment(shop: RunningShop, reference: string) {
  return shop.t.deps.database.db
    .selectFrom('orders')
    .innerJoin('payments', 'payments.id', 'orders.payment_id')
    .select([
      'orders.id',
      'orders.status',
      'orders.refund_required',
      'orders.transaction_signature',
      'orders.payment_method',
    ])
    .where('payments.reference', '=', reference)
    .execute();
}
