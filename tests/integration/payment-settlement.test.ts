/**
 * Every crypto payment ends in exactly one order or one refund: parts of a payment add
 * up, what goes beyond the amount due or arrives for a paid checkout is sent back, a payment after
 * expiry places the order when its items can still be held and is refunded in full when they can
 * not, a part payment whose checkout ended is refunded, a paid cart is closed, and the checkout's
 * access token unlocks the order's number and links. Paid with unmodified @solana/pay and
 * @solana/web3.js on the local ledger; refunds carried out by the refund worker's pass and read
 * back from the chain. On PGlite and on PostgreSQL.
 */
import { parseURL, type TransferRequestURL } from '@solana/pay';
import { Keypair, LAMPORTS_PER_SOL, type Connection } from '@solana/web3.js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_SERVER_MESSAGES, type CheckoutResponse } from '#common/schemas/checkout';
import { cartTopic } from '#common/schemas/events';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import { SHIPPING_INFO } from '../factories/order';
import {
  api,
  CHECKOUT_LIMITS,
  cryptoCheckout,
  demoShopper,
  ordersOfPayment,
  paymentStatus,
  payTransferRequest,
  waitForStatus,
  type StartedCryptoCheckout,
} from '../helpers/crypto-checkout';
import {
  BACKENDS,
  createScratchDatabase,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import { connect, startShop, stopShop, type RunningShop } from '../helpers/shop-server';

describe.each(BACKENDS)('payment settlement on %s', (backend) => {
  let scratch: ScratchDatabase;
  let shop: RunningShop;
  let connection: Connection;
  let shopper: Keypair;

  beforeAll(async () => {
    scratch = await createScratchDatabase(backend);
    shop = await startShop({ backend, scratch, env: CHECKOUT_LIMITS });
    connection = connect(shop);
    shopper = await demoShopper(shop);
  }, 60_000);
  afterAll(async () => {
    await stopShop(shop);
    await scratch.drop();
  });

  const db = () => shop.t.deps.database.db;

  /** A new wallet with 2 SOL, so what comes back to it can be counted to the lamport. */
  async function fundedWallet(): Promise<Keypair> {
    const wallet = Keypair.generate();
    await connection.confirmTransaction(
      await connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL),
      'confirmed',
    );
    return wallet;
  }

  async function amountDue(started: StartedCryptoCheckout) {
    return (parseURL(started.crypto.paymentUrl) as TransferRequestURL).amount!;
  }

  /** Runs the refund worker's pass until every refund of the payment has ended (or 15 s). */
  async function settleRefunds(reference: string) {
    return vi.waitFor(
      async () => {
        await shop.t.deps.refunds.processDue();
        const rows = await refundsOf(reference);
        if (!rows.every((r) => r.status === 'succeeded' || r.status === 'failed'))
          throw new Error(`refunds did not end: ${JSON.stringify(rows)}`);
        return rows;
      },
      { timeout: 15_000, interval: 200 },
    );
  }

  async function refundsOf(reference: string) {
    return db()
      .selectFrom('refunds')
      .innerJoin('payments', 'payments.id', 'refunds.payment_id')
      .select([
        'refunds.kind',
        'refunds.scope',
        'refunds.status',
        'refunds.crypto_amount',
        'refunds.amount_cents',
        'refunds.destination',
        'refunds.order_id',
        'refunds.reason',
        'refunds.transaction_signature',
      ])
      .where('payments.reference', '=', reference)
      .orderBy('refunds.created_at')
      .execute();
  }

  async function mailsTo(eventKeyPrefix: string) {
    return db()
      .selectFrom('mail_outbox')
      .select(['event_key', 'subject', 'text_body'])
      .where('event_key', 'like', `${eventKeyPrefix}%`)
      .execute();
  }

  /** A SOL checkout's body for the same item as `started` (another shopper's, or the same cart's). */
  function sameItems(started: StartedCryptoCheckout, cartId?: string) {
    const [line] = started.lines;
    return {
      items: [{ productId: started.productId, size: line!.size, color: line!.color, quantity: 1 }],
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'sol',
      ...(cartId ? { cartId } : {}),
    };
  }

  /** The payment's time runs out and the sweeper ends it (its stock goes back). */
  async function expire(reference: string) {
    await db()
      .updateTable('payments')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('reference', '=', reference)
      .execute();
    await sweepExpiredReservations(shop.t.deps);
  }

  it('part payments add up: half, then the rest to the same link, make one order', async () => {
    const started = await cryptoCheckout(shop, 'sol');
    const due = await amountDue(started); // 0.1666 SOL
    const payer = await fundedWallet();
    await payTransferRequest(connection, payer, started.crypto.paymentUrl, { amount: due.div(2) });
    const partial = await waitForStatus(shop, started.reference, (s) => s.received !== undefined);
    expect(partial).toMatchObject({
      status: 'pending',
      received: { symbol: 'SOL', receivedText: '0.0833', dueText: '0.1666', remainingText: '0.0833' },
    });
    expect(partial.message).toBe(
      'Payment received is less than the amount due (received 0.0833 of 0.1666 SOL). Send the remaining 0.0833 SOL to the same payment link before the time runs out; if it does not arrive in time, what you sent is refunded automatically.',
    );

    const rest = await payTransferRequest(connection, payer, started.crypto.paymentUrl, {
      amount: due.minus(due.div(2)),
    });
    const done = await waitForStatus(shop, started.reference, 'completed');
    expect(done.transaction_signature).toBe(rest);
    expect(done.received).toBeUndefined();
    expect(await ordersOfPayment(shop, started.reference)).toEqual([
      expect.objectContaining({ status: 'pending', transaction_signature: rest }),
    ]);
    const transfers = await db()
      .selectFrom('payment_transfers')
      .innerJoin('payments', 'payments.id', 'payment_transfers.payment_id')
      .select(['payment_transfers.amount', 'payment_transfers.applied_amount', 'payment_transfers.payer'])
      .where('payments.reference', '=', started.reference)
      .orderBy('payment_transfers.block_time')
      .execute();
    expect(transfers).toEqual([
      { amount: '83300000', applied_amount: '83300000', payer: payer.publicKey.toBase58() },
      { amount: '83300000', applied_amount: '83300000', payer: payer.publicKey.toBase58() },
    ]);
    expect(await refundsOf(started.reference)).toEqual([]);
  });

  it('an overpayment places the order and sends the excess back to the wallet that paid', async () => {
    const started = await cryptoCheckout(shop, 'sol');
    const due = await amountDue(started);
    const payer = await fundedWallet();
    await payTransferRequest(connection, payer, started.crypto.paymentUrl, { amount: due.times(1.5) });
    await waitForStatus(shop, started.reference, 'completed');
    const before = await connection.getBalance(payer.publicKey, 'confirmed');
    const [refund] = await settleRefunds(started.reference);
    expect(refund).toMatchObject({
      kind: 'automatic',
      scope: 'transfer',
      status: 'succeeded',
      crypto_amount: '83300000',
      destination: payer.publicKey.toBase58(),
      reason: 'Paid more than the amount due',
    });
    expect(await connection.getBalance(payer.publicKey, 'confirmed')).toBe(before + 83_300_000);
    // Revenue is what the order charged: the excess never counted.
    expect(await ordersOfPayment(shop, started.reference)).toHaveLength(1);
  });

  it('a payment to a checkout already paid is refunded whole, and the order stands', async () => {
    const started = await cryptoCheckout(shop, 'sol');
    const payer = await fundedWallet();
    await payTransferRequest(connection, payer, started.crypto.paymentUrl);
    await waitForStatus(shop, started.reference, 'completed');
    // The same link, paid again (a wallet's history, a second tab).
    const again = await payTransferRequest(connection, payer, started.crypto.paymentUrl);
    const after = await waitForStatus(shop, started.reference, (s) => (s.refunds?.length ?? 0) > 0);
    expect(after).toMatchObject({
      status: 'completed',
      message:
        'Your order is paid. A further payment to this checkout was not needed and is being refunded to the wallet that sent it.',
      refunds: [expect.objectContaining({ amountText: '0.1666 SOL' })],
    });
    const before = await connection.getBalance(payer.publicKey, 'confirmed');
    const [refund] = await settleRefunds(started.reference);
    expect(refund).toMatchObject({
      scope: 'transfer',
      status: 'succeeded',
      crypto_amount: '166600000',
      reason: 'Paid to a checkout whose order was already paid',
    });
    expect(refund!.transaction_signature).not.toBe(again);
    expect(await connection.getBalance(payer.publicKey, 'confirmed')).toBe(before + 166_600_000);
    expect(await ordersOfPayment(shop, started.reference)).toEqual([
      expect.objectContaining({ status: 'pending', refund_required: false }),
    ]);
    const [mail] = await mailsTo('payment-refund:');
    expect(mail?.text_body).toContain('We are sending it back to the wallet that paid it');
  });

  it('a late payment whose item sold out meanwhile fails with the true reason and is refunded in full', async () => {
    const started = await cryptoCheckout(shop, 'sol', { stock: 1 });
    await expire(started.reference);
    expect(await paymentStatus(shop, started.reference)).toMatchObject({ status: 'expired' });
    // Someone else buys the last one.
    const other = await api<CheckoutResponse>(shop, 'POST', '/api/checkout', sameItems(started));
    expect(other.status).toBe(201);

    const payer = await fundedWallet();
    await payTransferRequest(connection, payer, started.crypto.paymentUrl);
    const failed = await waitForStatus(shop, started.reference, 'failed');
    expect(failed.message).toBe(
      'Your payment arrived after this checkout had ended, and an item in it is no longer available, so no order was placed. Your payment is being refunded in full to the card or wallet that paid it.',
    );
    const [order] = await ordersOfPayment(shop, started.reference);
    expect(order).toMatchObject({ status: 'failed', refund_required: true });
    const before = await connection.getBalance(payer.publicKey, 'confirmed');
    const [refund] = await settleRefunds(started.reference);
    expect(refund).toMatchObject({
      kind: 'automatic',
      scope: 'order',
      status: 'succeeded',
      crypto_amount: '166600000',
      order_id: order!.id,
    });
    expect(await connection.getBalance(payer.publicKey, 'confirmed')).toBe(before + 166_600_000);
    const [mail] = await mailsTo(`order-refund:${order!.id}`);
    expect(mail?.text_body).toContain('Your payment arrived after the checkout had ended');
    expect(mail?.text_body).not.toContain('could not reserve');
  });

  it('a part payment whose checkout ended is refunded, and the page says so instead of a timeout', async () => {
    const started = await cryptoCheckout(shop, 'sol');
    const due = await amountDue(started);
    const payer = await fundedWallet();
    await payTransferRequest(connection, payer, started.crypto.paymentUrl, { amount: due.div(4) });
    await waitForStatus(shop, started.reference, (s) => s.received !== undefined);
    await expire(started.reference);
    const ended = await paymentStatus(shop, started.reference);
    expect(ended).toMatchObject({
      status: 'failed',
      message:
        'This checkout ended before the full amount arrived, so no order was placed. What you sent is being refunded to the wallet that paid it.',
    });
    const before = await connection.getBalance(payer.publicKey, 'confirmed');
    const [refund] = await settleRefunds(started.reference);
    expect(refund).toMatchObject({ scope: 'transfer', status: 'succeeded', crypto_amount: '41650000' });
    expect(await connection.getBalance(payer.publicKey, 'confirmed')).toBe(before + 41_650_000);
    expect(await ordersOfPayment(shop, started.reference)).toEqual([]);
  });

  it('closes a paid cart: the tabs holding it hear cart.closed, a new checkout from it and a new transaction are refused', async () => {
    const cartId = randomUUID();
    const heard: unknown[] = [];
    const unsubscribe = shop.t.deps.events.subscribe([cartTopic(cartId)], (event) => heard.push(event));
    try {
      const started = await cryptoCheckout(shop, 'sol', { cartId });
      await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
      const done = await waitForStatus(shop, started.reference, 'completed');
      await expect
        .poll(() => heard, { timeout: 5_000, interval: 50 })
        .toEqual([
          expect.objectContaining({
            topic: cartTopic(cartId),
            type: 'cart.closed',
            data: { reference: started.reference, orderId: done.order_id },
          }),
        ]);

      const again = await api<{ error: { code: string; message: string } }>(
        shop,
        'POST',
        '/api/checkout',
        sameItems(started, cartId),
      );
      expect(again.status).toBe(409);
      expect(again.body.error).toEqual({
        code: 'CONFLICT',
        message: CHECKOUT_SERVER_MESSAGES.cartAlreadyPaid,
      });

      const tx = await api<{ error: { message: string } }>(
        shop,
        'POST',
        `/api/solana-pay/payments/${started.reference}`,
        { account: shopper.publicKey.toBase58() },
      );
      expect(tx.status).toBe(409);
      expect(tx.body.error.message).toBe('This order is already paid; nothing more is due');
    } finally {
      unsubscribe();
    }
  });

  it("names the order and links to it only with the checkout's access token", async () => {
    const started = await cryptoCheckout(shop, 'aelo');
    await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
    const plain = await waitForStatus(shop, started.reference, 'completed');
    // The reference is public once paid: it alone tells no more than the status.
    expect(plain.order_number).toBeUndefined();
    expect(plain.order_url).toBeUndefined();
    const forged = await paymentStatus(
      shop,
      started.reference,
      `${Math.floor(Date.now() / 1000) + 999}.${'A'.repeat(43)}`,
    );
    expect(forged.order_url).toBeUndefined();

    const withToken = await paymentStatus(shop, started.reference, started.accessToken);
    expect(withToken.order_number).toBe(withToken.order_id!.slice(0, 8));
    expect(withToken.order_url).toMatch(new RegExp(`^/orders/${withToken.order_id}\\?token=`));
    expect(withToken.account_order_url).toBeNull();
    // The link is the guest order page's: it opens the order.
    const url = new URL(withToken.order_url!, shop.url);
    const guest = await api<{ id: string; discountCents: number; paymentMethod: string }>(
      shop,
      'GET',
      `/api/guest-orders/${withToken.order_id}?token=${encodeURIComponent(url.searchParams.get('token')!)}`,
    );
    expect(guest.status).toBe(200);
    expect(guest.body).toMatchObject({ id: withToken.order_id, paymentMethod: 'aelo' });
    expect(guest.body.discountCents).toBeGreaterThan(0);
    // The token of another checkout unlocks nothing here.
    const other = await cryptoCheckout(shop, 'sol');
    expect((await paymentStatus(shop, started.reference, other.accessToken)).order_url).toBeUndefined();
  });
});

warnIfPostgresSkipped();

describe.each(BACKENDS.filter((b) => b === 'postgres'))('two instances on one %s', (backend) => {
  it('settle a payment and refund what was paid twice exactly once', async () => {
    const scratch = await createScratchDatabase(backend);
    const host = await startShop({ backend, scratch, env: CHECKOUT_LIMITS });
    const chain = await host.t.deps.localChain!.get();
    const keys = JSON.parse(readFileSync(path.join(host.t.dataDir, 'local-ledger', 'keys.json'), 'utf8')) as {
      shopWallet: number[];
    };
    const other = await startShop({
      backend,
      scratch,
      env: {
        ...CHECKOUT_LIMITS,
        SOLANA_RPC_URL: `${host.url}/local-chain`,
        TOKEN_MINT: chain.setup.mint,
        SHOP_WALLET: chain.setup.shopWallet,
        SHOP_WALLET_SECRET_KEY: JSON.stringify(keys.shopWallet),
        PAYMENT_WATCH_INTERVAL_MS: '100',
      },
    });
    try {
      const connection = connect(host);
      const payer = Keypair.generate();
      await connection.confirmTransaction(
        await connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL),
        'confirmed',
      );
      const started = await cryptoCheckout(host, 'sol');
      await payTransferRequest(connection, payer, started.crypto.paymentUrl);
      await payTransferRequest(connection, payer, started.crypto.paymentUrl);
      // Both instances look, and carry out refunds, at once and again.
      await Promise.all(
        [host, other].flatMap((shop) =>
          Array.from({ length: 4 }, () => shop.t.deps.cryptoPayments.check(started.reference)),
        ),
      );
      const before = await connection.getBalance(payer.publicKey, 'confirmed');
      for (let i = 0; i < 5; i++) {
        await Promise.all([host.t.deps.refunds.processDue(), other.t.deps.refunds.processDue()]);
      }
      const refunds = await host.t.deps.database.db
        .selectFrom('refunds')
        .innerJoin('payments', 'payments.id', 'refunds.payment_id')
        .select(['refunds.status', 'refunds.crypto_amount'])
        .where('payments.reference', '=', started.reference)
        .execute();
      expect(refunds).toEqual([{ status: 'succeeded', crypto_amount: '166600000' }]);
      expect(await connection.getBalance(payer.publicKey, 'confirmed')).toBe(before + 166_600_000);
      expect(await ordersOfPayment(host, started.reference)).toHaveLength(1);
    } finally {
      await stopShop(other);
      await stopShop(host);
      await scratch.drop();
    }
  }, 60_000);
});
