/**
 * Crypto checkout end to end on the local ledger, paid the way a wallet pays: the Solana Pay URL
 * the checkout answers, read with unmodified @solana/pay (parseURL, createTransfer) and signed with
 * @solana/web3.js 1.x, sent to /local-chain; the server's watcher finds and validates the transfer
 * and makes the order. Refusals (underpayment, wrong recipient, wrong mint, a reused signature), a
 * payment after expiry, a restart with a payment awaited, and two instances on one PostgreSQL.
 */
import { findReference, parseURL, validateTransfer, type TransferRequestURL } from '@solana/pay';
import {
  createMint,
  createTransferInstruction,
  getOrCreateAssociatedTokenAccount,
  mintTo,
} from '@solana/spl-token';
import { Keypair, PublicKey, sendAndConfirmTransaction, Transaction, type Connection } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps } from '#server/deps';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import {
  api,
  CHECKOUT_LIMITS,
  cryptoCheckout,
  ordersOfPayment,
  paymentStatus,
  payTransferRequest,
  waitForStatus,
} from '../helpers/crypto-checkout';
import { BACKENDS, createScratchDatabase, warnIfPostgresSkipped } from '../helpers/databases';
import { connect, startShop, stopShop, websocketsClosed, type RunningShop } from '../helpers/shop-server';
import { openTestDatabase } from '../helpers/test-app';

describe('crypto payments on the local ledger', () => {
  let shop: RunningShop;
  let connection: Connection;
  let shopper: Keypair;

  beforeAll(async () => {
    shop = await startShop({ env: CHECKOUT_LIMITS });
    connection = connect(shop);
    const wallet = await api<{ secretKey: number[] }>(shop, 'GET', '/api/chain/demo-wallet');
    shopper = Keypair.fromSecretKey(Uint8Array.from(wallet.body.secretKey));
  }, 60_000);
  afterAll(() => stopShop(shop));

  it('a SOL payment read from the checkout URL completes an order, priced on the server', async () => {
    const started = await cryptoCheckout(shop, 'sol', { priceCents: 2_000 }); // $20 + $4.99 shipping at $150/SOL
    const request = parseURL(started.crypto.paymentUrl) as TransferRequestURL;
    expect(request.recipient.toBase58()).toBe(started.crypto.recipient);
    expect(request.amount!.toString()).toBe('0.1666'); // $24.99 at $150 per SOL
    expect(request.reference![0]!.toBase58()).toBe(started.reference);
    expect(request.splToken).toBeUndefined();
    expect(started.crypto.amount).toBe('166600000');

    const signature = await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
    const done = await waitForStatus(shop, started.reference, 'completed');
    expect(done.transaction_signature).toBe(signature);
    expect(await ordersOfPayment(shop, started.reference)).toEqual([
      expect.objectContaining({
        status: 'pending',
        refund_required: false,
        transaction_signature: signature,
        payment_method: 'sol',
      }),
    ]);
    // @solana/pay's own validator agrees with the server's.
    const found = await findReference(connection, new PublicKey(started.reference), {
      finality: 'confirmed',
    });
    await validateTransfer(connection, found.signature, {
      recipient: request.recipient,
      amount: request.amount!,
      reference: request.reference!,
    });
  });

  it('an AELO payment pays 90% of the total in the shop token and completes an order', async () => {
    const started = await cryptoCheckout(shop, 'aelo', { priceCents: 6_000 }); // $60, free shipping, 10% off = $54
    expect(started.amounts.totalCents).toBe(5_400);
    const request = parseURL(started.crypto.paymentUrl) as TransferRequestURL;
    const info = await api<{ token: { mint: string } }>(shop, 'GET', '/api/shop');
    expect(request.splToken?.toBase58()).toBe(info.body.token.mint);
    expect(request.amount!.toString()).toBe('128571.428572'); // 54 / 0.00042, rounded up
    const signature = await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
    await waitForStatus(shop, started.reference, 'completed');
    expect(await ordersOfPayment(shop, started.reference)).toEqual([
      expect.objectContaining({
        status: 'pending',
        transaction_signature: signature,
        payment_method: 'aelo',
      }),
    ]);
  });

  it('an underpayment leaves the payment awaiting, and says so', async () => {
    const started = await cryptoCheckout(shop, 'sol');
    const request = parseURL(started.crypto.paymentUrl) as TransferRequestURL;
    await payTransferRequest(connection, shopper, started.crypto.paymentUrl, {
      amount: request.amount!.div(2).decimalPlaces(9),
    });
    const underpaid = /less than the amount due \(received 0\.0833 of 0\.1666 SOL\)/;
    await expect
      .poll(async () => (await paymentStatus(shop, started.reference)).message, {
        timeout: 5_000,
        interval: 100,
      })
      .toMatch(underpaid);
    const current = await paymentStatus(shop, started.reference);
    expect(current.status).toBe('pending');
    expect(current.message).toMatch(underpaid);
    expect(await ordersOfPayment(shop, started.reference)).toEqual([]);
  });

  it('refuses a transfer to another recipient and one of another mint', async () => {
    const sol = await cryptoCheckout(shop, 'sol');
    const stranger = Keypair.generate().publicKey;
    await connection.confirmTransaction(await connection.requestAirdrop(stranger, 10 ** 9), 'confirmed');
    await payTransferRequest(connection, shopper, sol.crypto.paymentUrl, { recipient: stranger });

    const aelo = await cryptoCheckout(shop, 'aelo');
    const request = parseURL(aelo.crypto.paymentUrl) as TransferRequestURL;
    // Another token, sent to the shop's wallet with the payment's reference.
    const otherMint = await createMint(connection, shopper, shopper.publicKey, null, 6);
    const from = await getOrCreateAssociatedTokenAccount(connection, shopper, otherMint, shopper.publicKey);
    const to = await getOrCreateAssociatedTokenAccount(connection, shopper, otherMint, request.recipient);
    await mintTo(connection, shopper, otherMint, from.address, shopper, 10n ** 12n);
    const ix = createTransferInstruction(
      from.address,
      to.address,
      shopper.publicKey,
      BigInt(aelo.crypto.amount),
    );
    ix.keys.push({ pubkey: new PublicKey(aelo.reference), isSigner: false, isWritable: false });
    await sendAndConfirmTransaction(connection, new Transaction().add(ix), [shopper], {
      commitment: 'confirmed',
    });

    // Let the watcher pass over both a few times.
    await shop.t.deps.cryptoPayments.check(sol.reference);
    await shop.t.deps.cryptoPayments.check(aelo.reference);
    for (const reference of [sol.reference, aelo.reference]) {
      expect((await paymentStatus(shop, reference)).status).toBe('pending');
      expect(await ordersOfPayment(shop, reference)).toEqual([]);
    }
  });

  it('one signature pays one order: a transfer naming two references pays only one of them', async () => {
    const first = await cryptoCheckout(shop, 'sol');
    const second = await cryptoCheckout(shop, 'sol');
    expect(second.crypto.amount).toBe(first.crypto.amount);
    const request = parseURL(first.crypto.paymentUrl) as TransferRequestURL;
    const signature = await payTransferRequest(connection, shopper, first.crypto.paymentUrl, {
      references: [new PublicKey(first.reference), new PublicKey(second.reference)],
      amount: request.amount!,
    });
    await shop.t.deps.cryptoPayments.check(first.reference);
    await shop.t.deps.cryptoPayments.check(second.reference);
    const statuses = [
      (await paymentStatus(shop, first.reference)).status,
      (await paymentStatus(shop, second.reference)).status,
    ].sort();
    expect(statuses).toEqual(['completed', 'pending']);
    const rows = await shop.t.deps.database.db
      .selectFrom('payments')
      .select('reference')
      .where('transaction_signature', '=', signature)
      .execute();
    expect(rows).toHaveLength(1);
    const transfers = await shop.t.deps.database.db
      .selectFrom('payment_transfers')
      .select('payment_id')
      .where('signature', '=', signature)
      .execute();
    expect(transfers).toHaveLength(1);
  });

  it('a payment after expiry, its items still there, places the order at its quote', async () => {
    const started = await cryptoCheckout(shop, 'sol');
    const db = shop.t.deps.database.db;
    // Five minutes pass: the payment's time is up and the sweeper ends it.
    await db
      .updateTable('payments')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('reference', '=', started.reference)
      .execute();
    await sweepExpiredReservations(shop.t.deps);
    const expired = await paymentStatus(shop, started.reference);
    expect(expired).toMatchObject({ status: 'expired', message: 'Payment expired' });
    const quantity = async () =>
      (
        await db
          .selectFrom('products')
          .select('quantity')
          .where('id', '=', started.productId)
          .executeTakeFirstOrThrow()
      ).quantity;
    expect(await quantity()).toBe(5);

    await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
    const done = await waitForStatus(shop, started.reference, 'completed');
    expect(done.message).toBeUndefined();
    expect(await ordersOfPayment(shop, started.reference)).toEqual([
      expect.objectContaining({ status: 'pending', refund_required: false }),
    ]);
    // The stock that had gone back is taken again, once.
    expect(await quantity()).toBe(4);
  });

  it('serves the payment as a Solana Pay transaction request a wallet signs', async () => {
    const started = await cryptoCheckout(shop, 'sol');
    const label = await api<{ label: string; icon: string }>(
      shop,
      'GET',
      `/api/solana-pay/payments/${started.reference}`,
    );
    expect(label.body).toEqual({ label: 'Aelo', icon: expect.stringMatching(/favicon\.svg$/) });
    // Base58 that is not 32 bytes passes the pattern but is no address: the client's error, not a 500.
    const notAnAddress = await api<{ error: { code: string } }>(
      shop,
      'POST',
      `/api/solana-pay/payments/${started.reference}`,
      { account: '1'.repeat(43) },
    );
    expect(notAnAddress.status).toBe(400);
    const res = await fetch(`${shop.url}/api/solana-pay/payments/${started.reference}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://wallet.example' },
      body: JSON.stringify({ account: shopper.publicKey.toBase58() }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const { transaction } = (await res.json()) as { transaction: string };
    const tx = Transaction.from(Buffer.from(transaction, 'base64'));
    expect(tx.feePayer?.toBase58()).toBe(shopper.publicKey.toBase58());
    tx.partialSign(shopper);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await connection.confirmTransaction(signature, 'confirmed');
    const done = await waitForStatus(shop, started.reference, 'completed');
    expect(done.transaction_signature).toBe(signature);

    // A paid (or unknown) payment hands out no more transactions.
    const again = await api<{ error: { code: string } }>(
      shop,
      'POST',
      `/api/solana-pay/payments/${started.reference}`,
      {
        account: shopper.publicKey.toBase58(),
      },
    );
    expect(again.status).toBe(409);
    const bad = await api<{ error: { code: string } }>(
      shop,
      'POST',
      `/api/solana-pay/payments/${started.reference}`,
      {
        account: 'not-an-address',
      },
    );
    expect(bad.status).toBe(400);
  });
});

describe('crypto payments across restarts and instances', () => {
  it('a payment awaited while the server was down is completed after the restart', async () => {
    const scratch = await createScratchDatabase('pglite');
    const database = await openTestDatabase(scratch);
    const first = await startShop({ database, scratch, watcher: false, env: CHECKOUT_LIMITS });
    const dataDir = first.t.dataDir;
    const connection = connect(first);
    const wallet = await api<{ secretKey: number[] }>(first, 'GET', '/api/chain/demo-wallet');
    const shopper = Keypair.fromSecretKey(Uint8Array.from(wallet.body.secretKey));
    const started = await cryptoCheckout(first, 'sol');
    await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
    // The server stops before anything looked for the payment (no watcher ran).
    expect((await paymentStatus(first, started.reference)).status).toBe('pending');
    await websocketsClosed(first);
    first.detach();
    await new Promise<void>((resolve) => first.server.close(() => resolve()));
    // Not first.t.close(): that would delete the data directory the ledger lives in.
    await closeDeps(first.t.deps, { keepDatabase: true });

    const second = await startShop({ database, scratch, env: { ...CHECKOUT_LIMITS, DATA_DIR: dataDir } });
    try {
      await waitForStatus(second, started.reference, 'completed');
      expect(await ordersOfPayment(second, started.reference)).toHaveLength(1);
    } finally {
      await stopShop(second);
      await database.close();
      await scratch.drop();
    }
  }, 60_000);

  describe.each(BACKENDS.filter((b) => b === 'postgres'))('two instances on one %s', (backend) => {
    it('complete a payment exactly once', async () => {
      const scratch = await createScratchDatabase(backend);
      const host = await startShop({ backend, scratch, env: CHECKOUT_LIMITS });
      const hostInfo = await api<{ token: { mint: string } }>(host, 'GET', '/api/shop');
      const wallet = await api<{ secretKey: number[] }>(host, 'GET', '/api/chain/demo-wallet');
      const chain = await host.t.deps.localChain!.get();
      const other = await startShop({
        backend,
        scratch,
        env: {
          ...CHECKOUT_LIMITS,
          SOLANA_RPC_URL: `${host.url}/local-chain`,
          TOKEN_MINT: hostInfo.body.token.mint,
          SHOP_WALLET: chain.setup.shopWallet,
          PAYMENT_WATCH_INTERVAL_MS: '100',
        },
      });
      try {
        const shopper = Keypair.fromSecretKey(Uint8Array.from(wallet.body.secretKey));
        // Priced on the host (the other instance has no market feed here); watched by both.
        const started = await cryptoCheckout(host, 'sol');
        await payTransferRequest(connect(host), shopper, started.crypto.paymentUrl);
        // Both instances look at once, again and again.
        await Promise.all([
          ...Array.from({ length: 5 }, () => host.t.deps.cryptoPayments.check(started.reference)),
          ...Array.from({ length: 5 }, () => other.t.deps.cryptoPayments.check(started.reference)),
        ]);
        await waitForStatus(other, started.reference, 'completed');
        expect(await ordersOfPayment(host, started.reference)).toHaveLength(1);
        const confirmations = await host.t.deps.database.db
          .selectFrom('payment_events')
          .innerJoin('payments', 'payments.id', 'payment_events.payment_id')
          .select('payment_events.id')
          .where('payments.reference', '=', started.reference)
          .where('payment_events.to_status', '=', 'confirmed')
          .execute();
        expect(confirmations).toHaveLength(1);
      } finally {
        await stopShop(other);
        await stopShop(host);
        await scratch.drop();
      }
    }, 60_000);
  });
  warnIfPostgresSkipped();
});
