import { address, type Address } from '@solana/kit';
import type { Db } from '#server/db/client';
import { crashPoint } from '#server/lib/crash-point';
import type { Logger } from '#server/lib/logger';
import { awaitBatch, batchOutcome, sendBatch } from '../airdrops/airdrop-sender';
import type { ChainAccounts, ChainService } from '../chain/chain.service';
import { StripeRefundRefused, type StripeGateway, type StripeRefundState } from '../payments/stripe-gateway';
import { feePayerOf, findAdminSignedRefund, signRefund } from './refund-sender';
import { createRefundsRepository, type RefundRow } from './refunds.repository';

/** How long a leased refund is left to its instance (a killed instance's lease runs out after it). */
const LEASE_MS = 30_000;
/** How soon a refund awaiting an admin's signature is looked for on the chain again. */
const SIGNATURE_POLL_MS = 5_000;
const LEASE_BATCH = 10;
const CONFIRM = { timeoutMs: 15_000, pollMs: 250 };

/**
 * Carries refunds out (the refund worker's pass, refunds.service.ts says how a refund is decided):
 * leases the due ones (N instances never carry one out twice), asks Stripe with the refund's
 * idempotency key, or signs, records and sends a crypto transfer back and asks the chain what
 * became of it; `onChanged` hears of every refund whose state moved.
 */
export function createRefundCarrier(deps: {
  db: Db;
  stripe: StripeGateway;
  chain: ChainService;
  log: Logger;
  onChanged: (refundId: string) => Promise<void>;
}): { processDue(): Promise<number> } {
  const { stripe, chain, log } = deps;
  const repo = createRefundsRepository(deps.db);

  async function applyStripeState(row: RefundRow, state: StripeRefundState): Promise<void> {
    if (state.status === 'succeeded') {
      await repo.markSucceeded(row.id, { stripeRefundId: state.id });
    } else if (state.status === 'failed' || state.status === 'canceled') {
      await repo.markFailed(row.id, `Stripe: ${state.failureReason ?? state.status}`, state.id);
    } else {
      await repo.markStripeSent(row.id, state.id);
      await repo.release(row.id, new Date(Date.now() + SIGNATURE_POLL_MS));
    }
  }

  async function processCard(row: RefundRow): Promise<void> {
    try {
      if (row.stripe_refund_id) {
        await applyStripeState(row, await stripe.retrieveRefund(row.stripe_refund_id));
        return;
      }
      const payment = await repo.findPayment(row.payment_id);
      if (!payment?.stripe_payment_intent_id) {
        await repo.markFailed(row.id, 'The card payment has no Stripe payment intent');
        return;
      }
      crashPoint('refunds:after-record');
      // The same key answers the same Stripe refund, whichever attempt or instance asks.
      const state = await stripe.createRefund({
        paymentIntentId: payment.stripe_payment_intent_id,
        amountCents: row.amount_cents,
        idempotencyKey: `refund-${row.id}`,
        metadata: { refund_id: row.id, order_id: row.order_id ?? '', payment_id: row.payment_id },
      });
      crashPoint('refunds:after-send');
      await applyStripeState(row, state);
    } catch (err) {
      if (err instanceof StripeRefundRefused) {
        await repo.markFailed(row.id, `Stripe: ${err.message}`);
        return;
      }
      throw err;
    }
  }

  /** The wallet a crypto refund goes to: recorded with the refund, else the paying transaction's fee payer. */
  async function destinationOf(row: RefundRow): Promise<Address | null> {
    if (row.destination) return address(row.destination);
    const payment = await repo.findPayment(row.payment_id);
    const signature = payment?.transaction_signature;
    const payer = signature ? await feePayerOf(chain.rpc, signature) : null;
    return payer ? address(payer) : null;
  }

  async function processCrypto(row: RefundRow): Promise<void> {
    const accounts: ChainAccounts = await chain.requireAccounts();
    const destination = await destinationOf(row);
    if (!destination) {
      await repo.markFailed(row.id, 'The wallet that paid is not known');
      return;
    }
    const transfer = {
      shopWallet: accounts.shopWallet,
      destination,
      mint: row.method === 'aelo' ? address(row.crypto_mint ?? accounts.mint) : null,
      amount: BigInt(row.crypto_amount ?? '0'),
    };
    const rpc = chain.rpc;

    if (row.status === 'awaiting_signature') {
      const signature = await findAdminSignedRefund(rpc, accounts.shopWallet, row.id);
      if (signature) await repo.markSucceeded(row.id, { signature });
      else await repo.release(row.id, new Date(Date.now() + SIGNATURE_POLL_MS));
      return;
    }

    let state =
      row.status === 'sent' &&
      row.transaction_signature &&
      row.transaction_wire &&
      row.last_valid_block_height
        ? {
            signature: row.transaction_signature,
            wire: row.transaction_wire,
            lastValidBlockHeight: BigInt(row.last_valid_block_height),
          }
        : null;
    if (state) {
      // Recorded before a crash or an RPC error: the chain says what became of it.
      const outcome = await batchOutcome(rpc, state.signature, state.lastValidBlockHeight);
      if (outcome === 'landed') {
        await repo.markSucceeded(row.id, { signature: state.signature });
        return;
      }
      if (outcome === 'failed') {
        await repo.markFailed(row.id, 'The refund transaction failed on the chain');
        return;
      }
      if (outcome === 'expired') {
        await repo.forgetSigned(row.id, 'blockhash expired before the refund landed; signing anew');
        state = null;
      } else {
        // Not seen and still valid: the same bytes again (they cannot land twice).
        await sendBatch(rpc, state.wire);
      }
    }
    if (!state) {
      if (!accounts.shopSigner) {
        await repo.markAwaitingSignature(row.id, destination, null);
        return;
      }
      const signed = await signRefund(rpc, accounts.shopSigner, transfer);
      await repo.recordSigned(row.id, signed, destination);
      crashPoint('refunds:after-record');
      const err = await sendBatch(rpc, signed.wire);
      if (err) log.warn({ err, refund: row.id }, 'refund send failed; checking whether it landed');
      crashPoint('refunds:after-send');
      state = signed;
    }
    const outcome = await awaitBatch(rpc, state.signature, state.lastValidBlockHeight, CONFIRM);
    if (outcome === 'landed') await repo.markSucceeded(row.id, { signature: state.signature });
    else if (outcome === 'failed')
      await repo.markFailed(row.id, 'The refund transaction failed on the chain');
    else if (outcome === 'expired') {
      await repo.forgetSigned(row.id, 'blockhash expired before the refund landed; signing anew');
      await repo.release(row.id);
    }
    // pending: still 'sent'; the next pass after the lease asks the chain again.
  }

  async function processOne(row: RefundRow): Promise<void> {
    try {
      if (row.method === 'card') await processCard(row);
      else await processCrypto(row);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ err, refund: row.id }, 'refund attempt failed; trying again after its lease');
      await repo.noteError(row.id, message).catch(() => undefined);
    }
    const after = await repo.findById(row.id);
    if (after && (after.status !== row.status || after.stripe_refund_id !== row.stripe_refund_id)) {
      if (after.status === 'succeeded' && after.order_id) await clearIfFullyRefunded(after.order_id);
      await deps.onChanged(row.id);
    }
  }

  /** An order whose refunds (succeeded) return all it charged needs no refund any more. */
  async function clearIfFullyRefunded(orderId: string): Promise<void> {
    const order = await repo.findOrderFacts(orderId);
    if (!order?.refund_required) return;
    const refunded = await repo.refundedOfOrder(orderId);
    if (refunded.cents >= order.amount_cents) await repo.clearRefundRequired(orderId);
  }

  async function processDue(): Promise<number> {
    let done = 0;
    for (;;) {
      const now = new Date();
      const rows = await repo.leaseDue(now, new Date(now.getTime() + LEASE_MS), LEASE_BATCH);
      for (const row of rows) await processOne(row);
      done += rows.length;
      if (rows.length < LEASE_BATCH) return done;
    }
  }

  return { processDue };
}
