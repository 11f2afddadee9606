import { sql, type Selectable } from 'kysely';
import type { Db } from '#server/db/client';
import type { RefundsTable } from '#server/db/schema';

/**
 * refunds (0022_transfers_and_refunds.sql): inserted in the transaction that decides a refund,
 * leased by the refund worker (FOR UPDATE SKIP LOCKED on lease_until, so N instances never carry
 * one out twice), and moved through pending -> sent -> succeeded (or awaiting_signature, failed).
 */

export type RefundRow = Selectable<RefundsTable>;

export interface NewRefundRow {
  paymentId: string;
  orderId: string | null;
  transferId: string | null;
  method: 'card' | 'sol' | 'aelo';
  kind: 'manual' | 'automatic';
  scope: 'order' | 'transfer';
  status?: 'pending' | 'awaiting_signature';
  amountCents: number;
  cryptoAmount: bigint | null;
  cryptoMint: string | null;
  destination: string | null;
  reason: string;
  createdBy: string | null;
}

/** The order a refund is decided on, locked FOR UPDATE (two admins pressing Refund wait in turn). */
export interface LockedOrder {
  id: string;
  payment_id: string | null;
  user_id: string | null;
  amount_cents: number;
  payment_method: 'card' | 'sol' | 'aelo';
  transaction_signature: string | null;
  refund_required: boolean;
}

/** What the worker and the refund decision read of the paying payment. */
export interface PaymentFacts {
  id: string;
  method: 'card' | 'sol' | 'aelo';
  amount_cents: number;
  crypto_amount: string | null;
  crypto_mint: string | null;
  stripe_payment_intent_id: string | null;
  transaction_signature: string | null;
}

export function createRefundsRepository(db: Db) {
  return {
    /** Inserts a refund; null when its transfer already has one (transfer_id is unique). */
    async insert(row: NewRefundRow): Promise<string | null> {
      const inserted = await db
        .insertInto('refunds')
        .values({
          payment_id: row.paymentId,
          order_id: row.orderId,
          transfer_id: row.transferId,
          method: row.method,
          kind: row.kind,
          scope: row.scope,
          status: row.status ?? 'pending',
          amount_cents: row.amountCents,
          crypto_amount: row.cryptoAmount === null ? null : row.cryptoAmount.toString(),
          crypto_mint: row.cryptoMint,
          destination: row.destination,
          reason: row.reason,
          created_by: row.createdBy,
        })
        .onConflict((oc) => oc.column('transfer_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted?.id ?? null;
    },

    async lockOrder(orderId: string): Promise<LockedOrder | undefined> {
      return db
        .selectFrom('orders')
        .select([
          'id',
          'payment_id',
          'user_id',
          'amount_cents',
          'payment_method',
          'transaction_signature',
          'refund_required',
        ])
        .where('id', '=', orderId)
        .forUpdate()
        .executeTakeFirst();
    },

    async findPayment(paymentId: string): Promise<PaymentFacts | undefined> {
      return db
        .selectFrom('payments')
        .select([
          'id',
          'method',
          'amount_cents',
          'crypto_amount',
          'crypto_mint',
          'stripe_payment_intent_id',
          'transaction_signature',
        ])
        .where('id', '=', paymentId)
        .executeTakeFirst();
    },

    /** What an order's refunds (order scope, not failed) return so far: cents and base units. */
    async refundedOfOrder(orderId: string): Promise<{ cents: number; crypto: bigint }> {
      const row = await db
        .selectFrom('refunds')
        .select([
          sql<string>`coalesce(sum(amount_cents), 0)::text`.as('cents'),
          sql<string>`coalesce(sum(crypto_amount), 0)::text`.as('crypto'),
        ])
        .where('order_id', '=', orderId)
        .where('scope', '=', 'order')
        .where('status', '<>', 'failed')
        .executeTakeFirstOrThrow();
      return { cents: Number(row.cents), crypto: BigInt(row.crypto) };
    },

    /**
     * The wallet that paid a payment: the payer of the transfer that paid it (its signature), else
     * of its first applied transfer, else of its first transfer; null when none is recorded.
     */
    async findPayer(paymentId: string, signature: string | null): Promise<string | null> {
      const row = await db
        .selectFrom('payment_transfers')
        .select('payer')
        .where('payment_id', '=', paymentId)
        .orderBy(sql`case when signature = ${signature} then 0 when applied_amount > 0 then 1 else 2 end`)
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      return row?.payer ?? null;
    },

    async clearRefundRequired(orderId: string): Promise<void> {
      await db
        .updateTable('orders')
        .set({ refund_required: false, updated_at: sql<Date>`now()` })
        .where('id', '=', orderId)
        .where('refund_required', '=', true)
        .execute();
    },

    async findById(id: string): Promise<RefundRow | undefined> {
      return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findByOrders(orderIds: readonly string[]): Promise<RefundRow[]> {
      if (orderIds.length === 0) return [];
      return db
        .selectFrom('refunds')
        .selectAll()
        .where('order_id', 'in', [...orderIds])
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async findByPayment(paymentId: string): Promise<RefundRow[]> {
      return db
        .selectFrom('refunds')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /**
     * Leases up to `limit` refunds due for work until `leaseUntil`: pending and sent ones, and
     * those awaiting an admin's signature (to see whether it landed). SKIP LOCKED: a refund another
     * instance is leasing right now is left to it; a lease that ran out (a crashed instance) is taken.
     */
    async leaseDue(now: Date, leaseUntil: Date, limit: number): Promise<RefundRow[]> {
      const result = await sql<RefundRow>`
        update refunds set lease_until = ${leaseUntil}::timestamptz, attempts = attempts + 1,
          updated_at = now()
        where id in (
          select id from refunds
          where status in ('pending', 'sent', 'awaiting_signature')
            and (lease_until is null or lease_until <= ${now}::timestamptz)
          order by created_at
          limit ${limit}
          for update skip locked
        )
        returning *
      `.execute(db);
      // RETURNING keeps no order: oldest first, as decided.
      return result.rows.sort(
        (a, b) =>
          new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id.localeCompare(b.id),
      );
    },

    /** Gives a lease back early (the next pass may look at the refund at once). */
    async release(id: string, until: Date | null = null): Promise<void> {
      await db.updateTable('refunds').set({ lease_until: until }).where('id', '=', id).execute();
    },

    /** Records a signed transaction before it is sent (status sent). */
    async recordSigned(
      id: string,
      signed: { signature: string; wire: string; lastValidBlockHeight: bigint },
      destination: string,
    ): Promise<void> {
      await db
        .updateTable('refunds')
        .set({
          status: 'sent',
          destination,
          transaction_signature: signed.signature,
          transaction_wire: signed.wire,
          last_valid_block_height: signed.lastValidBlockHeight.toString(),
          error: null,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
    },

    /** A recorded transaction that can no longer land: forgotten, to be signed anew. */
    async forgetSigned(id: string, error: string): Promise<void> {
      await db
        .updateTable('refunds')
        .set({
          status: 'pending',
          transaction_signature: null,
          transaction_wire: null,
          last_valid_block_height: null,
          error,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
    },

    async markStripeSent(id: string, stripeRefundId: string): Promise<void> {
      await db
        .updateTable('refunds')
        .set({ status: 'sent', stripe_refund_id: stripeRefundId, updated_at: new Date() })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'sent'])
        .execute();
    },

    /** Succeeded (only from an open state); false when it already was not open. */
    async markSucceeded(
      id: string,
      found: { stripeRefundId?: string; signature?: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('refunds')
        .set({
          status: 'succeeded',
          ...(found.stripeRefundId ? { stripe_refund_id: found.stripeRefundId } : {}),
          ...(found.signature ? { transaction_signature: found.signature } : {}),
          transaction_wire: null,
          error: null,
          lease_until: null,
          completed_at: sql<Date>`now()`,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'sent', 'awaiting_signature'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async markFailed(id: string, error: string, stripeRefundId?: string): Promise<boolean> {
      const result = await db
        .updateTable('refunds')
        .set({
          status: 'failed',
          error: error.slice(0, 1000),
          ...(stripeRefundId ? { stripe_refund_id: stripeRefundId } : {}),
          lease_until: null,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'sent', 'awaiting_signature'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async markAwaitingSignature(id: string, destination: string, error: string | null): Promise<void> {
      await db
        .updateTable('refunds')
        .set({
          status: 'awaiting_signature',
          destination,
          error,
          lease_until: null,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'awaiting_signature'])
        .execute();
    },

    async noteError(id: string, error: string): Promise<void> {
      await db
        .updateTable('refunds')
        .set({ error: error.slice(0, 1000), updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /** The order's buyer and amount, for the events and the mail after a refund's decision. */
    async findOrderFacts(orderId: string) {
      return db
        .selectFrom('orders')
        .select(['id', 'user_id', 'amount_cents', 'refund_required'])
        .where('id', '=', orderId)
        .executeTakeFirst();
    },
  };
}
