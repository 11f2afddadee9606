import type { Updateable } from 'kysely';
import type { Db } from '../../db/client';
import type { PaymentMethod, PaymentStatus, PaymentsTable } from '../../db/schema';

export interface PaymentRow {
  id: string;
  reference: string;
  method: PaymentMethod;
  status: PaymentStatus;
  subtotal_cents: number;
  shipping_cents: number;
  discount_cents: number;
  amount_cents: number;
  lines: unknown[];
  shipping_info: Record<string, string>;
  user_id: string | null;
  stripe_session_id: string | null;
  stripe_payment_intent_id: string | null;
  transaction_signature: string | null;
  account_password_hash: string | null;
  account_outcome: 'created' | 'existing' | null;
  error: string | null;
  expires_at: Date;
  confirmed_at: Date | null;
}

export interface NewPaymentRow {
  reference: string;
  method: PaymentMethod;
  subtotalCents: number;
  shippingCents: number;
  discountCents: number;
  amountCents: number;
  lines: unknown[];
  shippingInfo: Record<string, string>;
  userId: string | null;
  accountPasswordHash: string | null;
  expiresAt: Date;
}

const PAYMENT_COLUMNS = [
  'id',
  'reference',
  'method',
  'status',
  'subtotal_cents',
  'shipping_cents',
  'discount_cents',
  'amount_cents',
  'lines',
  'shipping_info',
  'user_id',
  'stripe_session_id',
  'stripe_payment_intent_id',
  'transaction_signature',
  'account_password_hash',
  'account_outcome',
  'error',
  'expires_at',
  'confirmed_at',
] as const;

export function createPaymentsRepository(db: Db) {
  return {
    async insert(payment: NewPaymentRow): Promise<{ id: string }> {
      const now = new Date();
      return db
        .insertInto('payments')
        .values({
          reference: payment.reference,
          method: payment.method,
          status: 'pending',
          subtotal_cents: payment.subtotalCents,
          shipping_cents: payment.shippingCents,
          discount_cents: payment.discountCents,
          amount_cents: payment.amountCents,
          lines: JSON.stringify(payment.lines),
          shipping_info: JSON.stringify(payment.shippingInfo),
          user_id: payment.userId,
          account_password_hash: payment.accountPasswordHash,
          expires_at: payment.expiresAt,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    async insertEvent(
      paymentId: string,
      fromStatus: PaymentStatus | null,
      toStatus: PaymentStatus,
      detail: Record<string, unknown> = {},
    ): Promise<void> {
      await db
        .insertInto('payment_events')
        .values({
          payment_id: paymentId,
          from_status: fromStatus,
          to_status: toStatus,
          detail: JSON.stringify(detail),
        })
        .execute();
    },

    async findByReference(reference: string): Promise<PaymentRow | null> {
      const row = await db
        .selectFrom('payments')
        .select(PAYMENT_COLUMNS)
        .where('reference', '=', reference)
        .executeTakeFirst();
      return row ?? null;
    },

    /** The id of the payment already paid by this Stripe PaymentIntent, if any. */
    async findIdByPaymentIntent(paymentIntentId: string): Promise<string | null> {
      const row = await db
        .selectFrom('payments')
        .select('id')
        .where('stripe_payment_intent_id', '=', paymentIntentId)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /** The payment, locked until the transaction ends (whoever changes its status holds this lock). */
    async lockByReference(reference: string): Promise<PaymentRow | null> {
      const row = await db
        .selectFrom('payments')
        .select(PAYMENT_COLUMNS)
        .where('reference', '=', reference)
        .forUpdate()
        .executeTakeFirst();
      return row ?? null;
    },

    async update(id: string, patch: Updateable<PaymentsTable>): Promise<void> {
      await db
        .updateTable('payments')
        .set({ ...patch, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Pending payments whose time is up, locked for the caller's transaction. SKIP LOCKED: rows
     * another instance (or a webhook) is working on are left to it, so N sweepers never collide.
     */
    async claimExpiredPending(now: Date, limit: number): Promise<PaymentRow[]> {
      return db
        .selectFrom('payments')
        .select(PAYMENT_COLUMNS)
        .where('status', '=', 'pending')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
