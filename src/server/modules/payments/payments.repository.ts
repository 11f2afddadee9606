import { sql, type Updateable } from 'kysely';
import type { Db } from '#server/db/client';
import { leaseForWatch } from '#server/db/lease';
import type { PaymentMethod } from '#common/schemas/checkout';
import type { PaymentStatus, PaymentsTable } from '#server/db/schema';

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
  /** Crypto payments: what is due in base units, of which mint (null: SOL), to whom, at what price. */
  crypto_amount: string | null;
  crypto_mint: string | null;
  recipient: string | null;
  crypto_price_usd: string | null;
  /** The browser cart the checkout came from (closed once paid). */
  cart_id: string | null;
}

/** What a crypto payment is quoted at (fixed for the payment's life). */
export interface CryptoQuoteColumns {
  amount: bigint;
  mint: string | null;
  recipient: string;
  priceUsd: string;
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
  /** The client's address (recorded) and the keys its holds are counted by (HolderKeys). */
  clientIp: string | null;
  clientKey: string | null;
  clientNetwork: string | null;
  cartId: string | null;
  crypto: CryptoQuoteColumns | null;
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
  'crypto_amount',
  'crypto_mint',
  'recipient',
  'crypto_price_usd',
  'cart_id',
] as const;

export function createPaymentsRepository(db: Db) {
  return {
    /** A new payment and its first event ('pending'), in one statement. */
    async insertWithEvent(payment: NewPaymentRow, detail: Record<string, unknown>): Promise<{ id: string }> {
      const now = new Date();
      return db
        .with('inserted', (qb) =>
          qb
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
              client_ip: payment.clientIp,
              client_key: payment.clientKey,
              client_network: payment.clientNetwork,
              cart_id: payment.cartId,
              crypto_amount: payment.crypto?.amount.toString() ?? null,
              crypto_mint: payment.crypto?.mint ?? null,
              recipient: payment.crypto?.recipient ?? null,
              crypto_price_usd: payment.crypto?.priceUsd ?? null,
              created_at: now,
              updated_at: now,
            })
            .returning('id'),
        )
        .with('event', (qb) =>
          qb
            .insertInto('payment_events')
            .columns(['payment_id', 'to_status', 'detail'])
            .expression((eb) =>
              eb
                .selectFrom('inserted')
                .select([
                  'inserted.id',
                  sql<string>`${'pending'}::text`.as('to_status'),
                  sql<string>`${JSON.stringify(detail)}::jsonb`.as('detail'),
                ]),
            ),
        )
        .selectFrom('inserted')
        .select('id')
        .executeTakeFirstOrThrow();
    },

    /** update and the event of its status change in one statement. */
    async updateWithEvent(
      id: string,
      patch: Updateable<PaymentsTable>,
      event: { fromStatus: PaymentStatus | null; toStatus: PaymentStatus; detail: Record<string, unknown> },
    ): Promise<void> {
      await db
        .with('updated', (qb) =>
          qb
            .updateTable('payments')
            .set({ ...patch, updated_at: new Date() })
            .where('id', '=', id)
            .returning('id'),
        )
        .insertInto('payment_events')
        .columns(['payment_id', 'from_status', 'to_status', 'detail'])
        .expression((eb) =>
          eb
            .selectFrom('updated')
            .select([
              'updated.id',
              sql<string | null>`${event.fromStatus}::text`.as('from_status'),
              sql<string>`${event.toStatus}::text`.as('to_status'),
              sql<string>`${JSON.stringify(event.detail)}::jsonb`.as('detail'),
            ]),
        )
        .execute();
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

    /** References of this cart's open checkouts (a new checkout from the cart replaces them). */
    async findOpenReferencesByCart(cartId: string, now: Date): Promise<string[]> {
      const rows = await db
        .selectFrom('payments')
        .select('reference')
        .where('cart_id', '=', cartId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .execute();
      return rows.map((r) => r.reference);
    },

    /** Card payments still without a Checkout Session after `before` (the server stopped in between). */
    async claimSessionlessPending(before: Date, limit: number): Promise<PaymentRow[]> {
      return db
        .selectFrom('payments')
        .select(PAYMENT_COLUMNS)
        .where('status', '=', 'pending')
        .where('method', '=', 'card')
        .where('stripe_session_id', 'is', null)
        .where('created_at', '<=', before)
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
    },

    /**
     * Crypto payments to look for on the chain (db/lease.ts), leased to the caller: pending ones
     * until `pendingUntil`; and, until `lateUntil` (less often), those of any status whose time
     * ended after `lateSince` (the late window), paid ones included, so whatever still arrives for a
     * paid, closed, expired or cancelled checkout is seen, recorded and refunded, never lost.
     */
    async leaseCryptoForWatch(
      now: Date,
      lateSince: Date,
      lease: { pendingUntil: Date; lateUntil: Date },
      limit: number,
    ): Promise<string[]> {
      return leaseForWatch(db, {
        table: 'payments',
        eligible: sql`method in ('sol', 'aelo') and (status = 'pending' or expires_at > ${lateSince})`,
        until: sql`case when status = 'pending' then ${lease.pendingUntil}::timestamptz else ${lease.lateUntil}::timestamptz end`,
        now,
        limit,
      });
    },

    /** Which of these addresses are references of crypto payments still looked for (as leased above). */
    async findWatchedReferences(addresses: readonly string[], lateSince: Date): Promise<string[]> {
      if (addresses.length === 0) return [];
      const rows = await db
        .selectFrom('payments')
        .select('reference')
        .where('reference', 'in', [...addresses])
        .where('method', 'in', ['sol', 'aelo'])
        .where((eb) => eb.or([eb('status', '=', 'pending'), eb('expires_at', '>', lateSince)]))
        .execute();
      return rows.map((r) => r.reference);
    },

    /** The payment a transaction signature already pays, if any. */
    async findIdBySignature(signature: string): Promise<string | null> {
      const row = await db
        .selectFrom('payments')
        .select('id')
        .where('transaction_signature', '=', signature)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /** Whether a checkout from this cart was paid: the cart is closed (a new checkout is refused). */
    async isCartPaid(cartId: string): Promise<boolean> {
      // Paid and placed: a failed order (refunded) bought nothing, so its cart stays open.
      const row = await db
        .selectFrom('payments as p')
        .innerJoin('orders as o', 'o.payment_id', 'p.id')
        .select('p.id')
        .where('p.cart_id', '=', cartId)
        .where('p.status', '=', 'confirmed')
        .where('o.status', '<>', 'failed')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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
