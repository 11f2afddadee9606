import { sql } from 'kysely';
import type { Db } from '#server/db/client';

/**
 * payment_transfers: each valid transfer naming a crypto payment's reference, recorded once
 * (unique signature), and what of it paid the order (decision 015).
 */

export interface NewTransferRow {
  paymentId: string;
  signature: string;
  payer: string;
  amount: bigint;
  blockTime: Date | null;
}

/** A recorded transfer (payment_transfers), amounts as bigint base units. */
export interface TransferRow {
  id: string;
  signature: string;
  payer: string;
  amount: bigint;
  appliedAmount: bigint;
  blockTime: Date | null;
}

function toTransfer(row: {
  id: string;
  signature: string;
  payer: string;
  amount: string;
  applied_amount: string;
  block_time: Date | null;
}): TransferRow {
  return {
    id: row.id,
    signature: row.signature,
    payer: row.payer,
    amount: BigInt(row.amount),
    appliedAmount: BigInt(row.applied_amount),
    blockTime: row.block_time,
  };
}

export function createPaymentTransfersRepository(db: Db) {
  return {
    /**
     * Records a transfer naming the payment (once per signature, across all payments); its id, or
     * null when that signature was recorded before.
     */
    async insertTransfer(transfer: NewTransferRow): Promise<string | null> {
      const row = await db
        .insertInto('payment_transfers')
        .values({
          payment_id: transfer.paymentId,
          signature: transfer.signature,
          payer: transfer.payer,
          amount: transfer.amount.toString(),
          block_time: transfer.blockTime,
        })
        .onConflict((oc) => oc.column('signature').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /** Whether this signature was already recorded (as a transfer, or as what paid a payment). */
    async isKnownSignature(signature: string): Promise<boolean> {
      const row = await db
        .selectFrom('payment_transfers')
        .select('id')
        .where('signature', '=', signature)
        .unionAll(db.selectFrom('payments').select('id').where('transaction_signature', '=', signature))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * The payment's transfers that still count toward it: not applied to an order and not being
     * refunded, oldest first.
     */
    async findOpenTransfers(paymentId: string): Promise<TransferRow[]> {
      const rows = await db
        .selectFrom('payment_transfers as t')
        .leftJoin('refunds as r', 'r.transfer_id', 't.id')
        .select(['t.id', 't.signature', 't.payer', 't.amount', 't.applied_amount', 't.block_time'])
        .where('t.payment_id', '=', paymentId)
        .where('t.applied_amount', '=', '0')
        .where('r.id', 'is', null)
        .orderBy('t.block_time', (ob) => ob.asc().nullsLast())
        .orderBy('t.created_at')
        .orderBy('t.id')
        .execute();
      return rows.map(toTransfer);
    },

    /** The transfers that paid the payment's order (applied), oldest first. */
    async findAppliedTransfers(paymentId: string): Promise<TransferRow[]> {
      const rows = await db
        .selectFrom('payment_transfers')
        .select(['id', 'signature', 'payer', 'amount', 'applied_amount', 'block_time'])
        .where('payment_id', '=', paymentId)
        .where('applied_amount', '>', '0')
        .orderBy('block_time', (ob) => ob.asc().nullsLast())
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toTransfer);
    },

    async setApplied(transferId: string, applied: bigint): Promise<void> {
      await db
        .updateTable('payment_transfers')
        .set({ applied_amount: applied.toString() })
        .where('id', '=', transferId)
        .execute();
    },

    /** Base units received for the payment and not sent back: what the status shows as arrived. */
    async sumReceived(paymentId: string): Promise<bigint> {
      const row = await db
        .selectFrom('payment_transfers as t')
        .leftJoin('refunds as r', (join) =>
          join.onRef('r.transfer_id', '=', 't.id').on('r.scope', '=', 'transfer'),
        )
        .select(
          sql<string>`coalesce(sum(case when r.id is null then t.amount else t.applied_amount end), 0)::text`.as(
            'sum',
          ),
        )
        .where('t.payment_id', '=', paymentId)
        .executeTakeFirstOrThrow();
      return BigInt(row.sum);
    },
  };
}
