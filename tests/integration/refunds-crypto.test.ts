import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, Transaction, type Connection } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Refund, RefundSignRequest } from '#common/schemas/refund';
import { queueRefund } from '#server/modules/refunds/refunds.service';
import {
  api,
  CHECKOUT_LIMITS,
  cryptoCheckout,
  demoShopper,
  ordersOfPayment,
  payTransferRequest,
  waitForStatus,
} from '../helpers/crypto-checkout';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { connect, startShop, stopShop, type RunningShop } from '../helpers/shop-server';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

/**
 * Crypto refunds on the local ledger: a transfer of the same coin back to the paying wallet,
 * signed with the shop wallet's key, read back with unmodified @solana/web3.js. SOL (partial, then
 * the rest: together exactly what was paid), AELO (to the payer's token account), an automatic
 * refund to a wallet with no token account yet (created by the shop), and, with no shop key, the
 * transaction request an admin's wallet signs (once: a second signed copy fails on the chain).
 */
describe.each(BACKENDS)('crypto refunds on the local ledger (%s)', (backend) => {
  let shop: RunningShop;
  let connection: Connection;
  let c: AdminClients;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    shop = await startShop({ backend, env: CHECKOUT_LIMITS });
    connection = connect(shop);
    c = await signInClients(shop.t);
  }, 60_000);
  afterAll(() => stopShop(shop));

  const db = () => shop.t.deps.database.db;
  const refundRow = (id: string) =>
    db().selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const refundUrl = (orderId: string) => `/api/admin/orders/${orderId}/refunds`;

  async function fundedWallet(): Promise<Keypair> {
    const wallet = Keypair.generate();
    await connection.confirmTransaction(
      await connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL),
      'confirmed',
    );
    return wallet;
  }

  async function paidOrder(method: 'sol' | 'aelo', payer: Keypair, priceCents: number) {
    const started = await cryptoCheckout(shop, method, { priceCents });
    const signature = await payTransferRequest(connection, payer, started.crypto.paymentUrl);
    await waitForStatus(shop, started.reference, 'completed');
    const [order] = await ordersOfPayment(shop, started.reference);
    return { orderId: order!.id, amount: BigInt(started.crypto.amount), signature, started };
  }

  async function tokenBalance(owner: PublicKey, mint: PublicKey): Promise<bigint> {
    const account = getAssociatedTokenAddressSync(mint, owner);
    const info = await connection.getAccountInfo(account, 'confirmed');
    if (!info) return 0n;
    return BigInt((await connection.getTokenAccountBalance(account, 'confirmed')).value.amount);
  }

  it('refunds part of a SOL order, then the rest: the payer gets back exactly what it paid', async () => {
    const payer = await fundedWallet();
    const { orderId, amount } = await paidOrder('sol', payer, 2_000); // $24.99 = 0.1666 SOL
    expect(amount).toBe(166_600_000n);
    const before = BigInt(await connection.getBalance(payer.publicKey, 'confirmed'));

    const part = await json<Refund>(
      await c.admin.post(refundUrl(orderId), { amountCents: 1_000, reason: 'One item was missing' }),
      201,
    );
    // $10.00 of $24.99 at the payment's quote, rounded down.
    expect(part).toMatchObject({
      method: 'sol',
      status: 'pending',
      amountCents: 1_000,
      cryptoAmount: '66666666',
      cryptoSymbol: 'SOL',
      destination: payer.publicKey.toBase58(),
    });
    await shop.t.deps.refunds.processDue();
    const partRow = await refundRow(part.id);
    expect(partRow).toMatchObject({ status: 'succeeded', transaction_wire: null });
    expect(BigInt(await connection.getBalance(payer.publicKey, 'confirmed'))).toBe(before + 66_666_666n);
    const tx = await connection.getTransaction(partRow.transaction_signature!, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(tx?.meta?.err).toBeNull();
    const accounts = await shop.t.deps.chain.requireAccounts();
    expect(tx!.transaction.message.staticAccountKeys[0]!.toBase58()).toBe(accounts.shopWallet);

    const rest = await json<Refund>(
      await c.admin.post(refundUrl(orderId), { reason: 'Returned the rest' }),
      201,
    );
    expect(rest).toMatchObject({ amountCents: 1_499, cryptoAmount: '99933334' });
    await shop.t.deps.refunds.processDue();
    expect((await refundRow(rest.id)).status).toBe('succeeded');
    expect(BigInt(await connection.getBalance(payer.publicKey, 'confirmed'))).toBe(before + amount);

    // The order views show both, with explorer links.
    const view = await json<{ refunds?: Refund[] }>(await c.admin.get(`/api/admin/orders/${orderId}`), 200);
    if (view.refunds) {
      expect(view.refunds.map((r) => [r.status, r.amountCents, r.explorerUrl !== null])).toEqual([
        ['succeeded', 1_000, true],
        ['succeeded', 1_499, true],
      ]);
    }
  });

  it('refunds an AELO order to the paying wallet’s token account', async () => {
    const shopper = await demoShopper(shop);
    const { orderId, amount } = await paidOrder('aelo', shopper, 6_000); // $54 in AELO
    const accounts = await shop.t.deps.chain.requireAccounts();
    const mint = new PublicKey(accounts.mint);
    const before = await tokenBalance(shopper.publicKey, mint);
    const shopBefore = await tokenBalance(new PublicKey(accounts.shopWallet), mint);

    const refund = await json<Refund>(await c.admin.post(refundUrl(orderId), { reason: 'Wrong size' }), 201);
    expect(refund).toMatchObject({ method: 'aelo', cryptoSymbol: 'AELO', cryptoAmount: amount.toString() });
    await shop.t.deps.refunds.processDue();
    expect((await refundRow(refund.id)).status).toBe('succeeded');
    expect(await tokenBalance(shopper.publicKey, mint)).toBe(before + amount);
    expect(await tokenBalance(new PublicKey(accounts.shopWallet), mint)).toBe(shopBefore - amount);
  });

  it('an automatic AELO refund reaches a wallet with no token account yet (the shop opens it)', async () => {
    const shopper = await demoShopper(shop);
    const { orderId, started } = await paidOrder('aelo', shopper, 3_000);
    const payment = await db()
      .selectFrom('payments')
      .select(['id', 'crypto_mint'])
      .where('reference', '=', started.reference)
      .executeTakeFirstOrThrow();
    const stranger = Keypair.generate().publicKey;
    const mint = new PublicKey(payment.crypto_mint!);
    expect(await connection.getAccountInfo(getAssociatedTokenAddressSync(mint, stranger))).toBeNull();
    const id = await db()
      .transaction()
      .execute((trx) =>
        queueRefund(trx, {
          paymentId: payment.id,
          orderId,
          transferId: null,
          method: 'aelo',
          kind: 'automatic',
          scope: 'transfer',
          amountCents: 100,
          cryptoAmount: 1_234_567n,
          cryptoMint: payment.crypto_mint,
          destination: stranger.toBase58(),
          reason: 'More than the amount due',
          createdBy: null,
        }),
      );
    await shop.t.deps.refunds.processDue();
    expect(await refundRow(id!)).toMatchObject({ status: 'succeeded', kind: 'automatic', scope: 'transfer' });
    expect(await tokenBalance(stranger, mint)).toBe(1_234_567n);
  });

  it('without the shop key, the admin signs the refund in a wallet, and it pays once', async () => {
    const payer = await fundedWallet();
    const { orderId, amount } = await paidOrder('sol', payer, 2_000);
    const accounts = await shop.t.deps.chain.requireAccounts();
    const signer = accounts.shopSigner;
    accounts.shopSigner = null; // as on a cluster where SHOP_WALLET_SECRET_KEY is not set
    try {
      const refund = await json<Refund>(
        await c.admin.post(refundUrl(orderId), { reason: 'Signed by hand' }),
        201,
      );
      await shop.t.deps.refunds.processDue();
      expect((await refundRow(refund.id)).status).toBe('awaiting_signature');

      const request = await json<RefundSignRequest>(
        await c.admin.get(`/api/admin/refunds/${refund.id}/sign-request`),
        200,
      );
      expect(request.signer).toBe(accounts.shopWallet);
      expect(request.url).toMatch(/^solana:/);
      const link = decodeURIComponent(request.url.slice('solana:'.length));
      expect(link).toContain(`/api/solana-pay/refunds/${refund.id}?token=`);
      const local = link.replace(/^https?:\/\/[^/]+/, shop.url);
      // What a wallet does: GET the label, POST its account (no cookies, another origin).
      const label = await fetch(local);
      expect(label.status).toBe(200);
      const ask = (account: string, url = local) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://wallet.example' },
          body: JSON.stringify({ account }),
        });
      expect((await ask(payer.publicKey.toBase58())).status).toBe(400);
      expect((await ask(accounts.shopWallet, local.replace(/token=[^&]+/, 'token=1.bad'))).status).toBe(404);
      const first = (await (await ask(accounts.shopWallet)).json()) as { transaction: string };

      // The admin's wallet holds the shop wallet's key (here: the local ledger's key file).
      const keys = JSON.parse(
        readFileSync(path.join(shop.t.dataDir, 'local-ledger', 'keys.json'), 'utf8'),
      ) as { shopWallet: number[] };
      const shopKey = Keypair.fromSecretKey(Uint8Array.from(keys.shopWallet));
      expect(shopKey.publicKey.toBase58()).toBe(accounts.shopWallet);
      const before = BigInt(await connection.getBalance(payer.publicKey, 'confirmed'));
      const sendSigned = async (wire: string) => {
        const tx = Transaction.from(Buffer.from(wire, 'base64'));
        tx.partialSign(shopKey);
        const sig = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
        await connection.confirmTransaction(sig, 'confirmed');
        return sig;
      };
      const landed = await sendSigned(first.transaction);
      // A second request before the worker saw it land: another transaction (a newer blockhash) for
      // the same refund, signed too. It lands as failed: the once-only account exists already.
      const second = (await (await ask(accounts.shopWallet)).json()) as { transaction: string };
      expect(second.transaction).not.toBe(first.transaction);
      const copy = await sendSigned(second.transaction);
      const copyTx = await connection.getTransaction(copy, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      expect(copyTx?.meta?.err).not.toBeNull(); // the once-only account exists: the copy moves nothing
      expect(BigInt(await connection.getBalance(payer.publicKey, 'confirmed'))).toBe(before + amount);

      await shop.t.deps.refunds.processDue();
      expect(await refundRow(refund.id)).toMatchObject({
        status: 'succeeded',
        transaction_signature: landed,
      });
      const late = await json<ErrorJson>(await ask(accounts.shopWallet), 409);
      expect(late.error.message).toBe('This refund does not need a signature');
    } finally {
      accounts.shopSigner = signer;
    }
  });

  it('the shop status of a payment lists its refunds', async () => {
    const payer = await fundedWallet();
    const { orderId, started } = await paidOrder('sol', payer, 2_000);
    await json<Refund>(await c.admin.post(refundUrl(orderId), { amountCents: 500, reason: 'Goodwill' }), 201);
    await shop.t.deps.refunds.processDue();
    const status = await api<{ refunds?: Refund[] }>(
      shop,
      'GET',
      `/api/payments/${started.reference}/status`,
    );
    if (status.body.refunds) {
      expect(status.body.refunds).toEqual([
        expect.objectContaining({ reason: 'Goodwill', status: 'succeeded' }),
      ]);
    }
  });
});
