import { sql, type Selectable, type Updateable } from 'kysely';
import type { AdminTokenPurchasesQuery } from '#common/schemas/token-sale';
import type { Db } from '#server/db/client';
import { leaseForWatch } from '#server/db/lease';
import type { TokenPurchasesTable } from '#server/db/schema';
import { pageWindow } from '#server/lib/pagination';

export type TokenPurchaseRow = Selectable<TokenPurchasesTable>;

export interface NewTokenPurchase {
  reference: string;
  usdCents: number;
  lamports: bigint;
  tokenAmount: bigint;
  solPriceUsd: string;
  tokenPriceUsd: string;
  clientIp: string | null;
  userId: string | null;
  expiresAt: Date;
}

/** The one transaction handed out for a purchase (the same bytes until its blockhash expires). */
export interface IssuedTransaction {
  buyer: string;
  transactionBase64: string;
  blockhash: string;
  lastValidBlockHeight: bigint;
}

export function createTokenSalesRepository(db: Db) {
  return {
    async insert(row: NewTokenPurchase): Promise<TokenPurchaseRow> {
      return db
        .insertInto('token_purchases')
        .values({
          reference: row.reference,
          usd_cents: row.usdCents,
          lamports: row.lamports.toString(),
          token_amount: row.tokenAmount.toString(),
          sol_price_usd: row.solPriceUsd,
          token_price_usd: row.tokenPriceUsd,
          client_ip: row.clientIp,
          user_id: row.userId,
          expires_at: row.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async findByReference(reference: string): Promise<TokenPurchaseRow | undefined> {
      return db
        .selectFrom('token_purchases')
        .selectAll()
        .where('reference', '=', reference)
        .executeTakeFirst();
    },

    /**
     * Hands out `next` in place of the transaction the row holds now (`previousBlockhash`, null
     * for none): a compare-and-set, so two requests racing can never both hand one out. Returns
     * false when another request changed the row first.
     */
    async issueTransaction(
      id: string,
      previousBlockhash: string | null,
      next: IssuedTransaction,
    ): Promise<boolean> {
      const result = await db
        .updateTable('token_purchases')
        .set({
          buyer: next.buyer,
          transaction_base64: next.transactionBase64,
          blockhash: next.blockhash,
          last_valid_block_height: next.lastValidBlockHeight.toString(),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) =>
          previousBlockhash === null ? eb('blockhash', 'is', null) : eb('blockhash', '=', previousBlockhash),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Completes a purchase once: the signature column is unique, the status moves only from not completed. */
    async complete(id: string, signature: string, buyer: string, completedAt: Date): Promise<boolean> {
      const result = await db
        .updateTable('token_purchases')
        .set({
          status: 'completed',
          transaction_signature: signature,
          buyer,
          completed_at: completedAt,
          watch_lease_until: null,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', '<>', 'completed')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async update(id: string, patch: Updateable<TokenPurchasesTable>): Promise<void> {
      await db
        .updateTable('token_purchases')
        .set({ ...patch, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Leases purchases still to be looked for on the chain (db/lease.ts: N instances never look
     * at one together): pending ones, for a second within their life and for 30 s at a
     * time after it (a transaction handed out may land until its blockhash expires).
     */
    async leaseForWatch(now: Date, lease: { liveUntil: Date; lateUntil: Date }, limit: number) {
      return leaseForWatch(db, {
        table: 'token_purchases',
        eligible: sql`status = 'pending'`,
        until: sql`case when expires_at > ${now} then ${lease.liveUntil}::timestamptz else ${lease.lateUntil}::timestamptz end`,
        now,
        limit,
      });
    },

    /** Which of these addresses are references of purchases handed out and not completed. */
    async findWatchedReferences(addresses: readonly string[]): Promise<string[]> {
      if (addresses.length === 0) return [];
      const rows = await db
        .selectFrom('token_purchases')
        .select('reference')
        .where('reference', 'in', [...addresses])
        .where('status', '<>', 'completed')
        .where('transaction_base64', 'is not', null)
        .execute();
      return rows.map((r) => r.reference);
    },

    async listPage(query: AdminTokenPurchasesQuery) {
      const { limit, offset } = pageWindow(query);
      let base = db.selectFrom('token_purchases as p').leftJoin('users as u', 'u.id', 'p.user_id');
      if (query.status !== 'all') base = base.where('p.status', '=', query.status);
      const [rows, count] = await Promise.all([
        base
          .selectAll('p')
          .select('u.email as user_email')
          .orderBy('p.created_at', 'desc')
          .orderBy('p.id')
          .limit(limit)
          .offset(offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    async completedStats() {
      return db
        .selectFrom('token_purchases')
        .select([
          sql<string>`count(*)::text`.as('completed'),
          sql<string>`coalesce(sum(usd_cents), 0)::text`.as('usd_cents'),
          sql<string>`coalesce(sum(token_amount), 0)::text`.as('token_amount'),
          sql<string>`coalesce(sum(lamports), 0)::text`.as('lamports'),
        ])
        .where('status', '=', 'completed')
        .executeTakeFirstOrThrow();
    },
  };
}

export type TokenSalesRepository = ReturnType<typeof createTokenSalesRepository>;
