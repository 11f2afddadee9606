import { sql } from 'kysely';
import type { AirdropAge } from '#common/schemas/admin-airdrops';
import type { Db } from '#server/db/client';
import { likeContains, toNumber } from '#server/db/sql-helpers';

/** airdrop_claims as the back office lists them. Ages are measured by the database clock. */

export interface ClaimRow {
  id: string;
  walletAddress: string;
  amountLamports: string;
  createdAt: Date;
  ageHours: number;
}

export function createAirdropsRepository(db: Db) {
  return {
    /** Newest first; `search` matches the wallet address or the claim id, case-insensitive. */
    async findPage(filter: {
      search: string;
      age: AirdropAge | undefined;
      limit: number;
      offset: number;
    }): Promise<{ rows: ClaimRow[]; total: number }> {
      // Planned and sent transfers are not claims yet: only what landed is listed.
      let query = db.selectFrom('airdrop_claims').where('status', '=', 'confirmed');
      if (filter.search) {
        const pattern = likeContains(filter.search);
        query = query.where((eb) =>
          eb.or([eb('wallet_address', 'ilike', pattern), eb(sql<string>`id::text`, 'ilike', pattern)]),
        );
      }
      // Spec §4: under 24 hours = 24h, under 168 hours = 7d, otherwise older.
      if (filter.age === '24h')
        query = query.where('created_at', '>', sql<Date>`now() - interval '24 hours'`);
      if (filter.age === '7d') {
        query = query
          .where('created_at', '<=', sql<Date>`now() - interval '24 hours'`)
          .where('created_at', '>', sql<Date>`now() - interval '168 hours'`);
      }
      if (filter.age === 'older')
        query = query.where('created_at', '<=', sql<Date>`now() - interval '168 hours'`);
      const [rows, count] = await Promise.all([
        query
          .select([
            'id',
            'wallet_address',
            sql<string>`amount_lamports::text`.as('amount'),
            'created_at',
            sql<number>`extract(epoch from (now() - created_at)) / 3600`.as('age_hours'),
          ])
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
      ]);
      return {
        rows: rows.map((r) => ({
          id: r.id,
          walletAddress: r.wallet_address,
          amountLamports: r.amount,
          createdAt: new Date(r.created_at),
          ageHours: toNumber(r.age_hours),
        })),
        total: toNumber(count.count),
      };
    },

    async stats(): Promise<{ totalClaims: number; totalLamports: string; uniqueWallets: number }> {
      // One hash aggregate per wallet, then totals over the groups (count(distinct) would sort).
      const row = await db
        .selectFrom((eb) =>
          eb
            .selectFrom('airdrop_claims')
            .where('status', '=', 'confirmed')
            .select([sql<unknown>`count(*)`.as('claims'), sql<string>`sum(amount_lamports)`.as('lamports')])
            .groupBy('wallet_address')
            .as('w'),
        )
        .select([
          sql<unknown>`coalesce(sum(w.claims), 0)`.as('claims'),
          sql<string>`coalesce(sum(w.lamports), 0)::text`.as('lamports'),
          sql<unknown>`count(*)`.as('wallets'),
        ])
        .executeTakeFirstOrThrow();
      return {
        totalClaims: toNumber(row.claims),
        totalLamports: row.lamports,
        uniqueWallets: toNumber(row.wallets),
      };
    },

    /** One wallet's airdrops: lamports by kind (decimal strings), how many, the latest. */
    async totalsForWallet(wallet: string) {
      return db
        .selectFrom('airdrop_claims')
        .select([
          sql<string>`coalesce(sum(amount_lamports), 0)::text`.as('total'),
          sql<string>`coalesce(sum(amount_lamports) filter (where kind = 'random'), 0)::text`.as('random'),
          sql<string>`coalesce(sum(amount_lamports) filter (where kind = 'top50'), 0)::text`.as('top50'),
          sql<string>`count(*)::text`.as('count'),
          sql<Date | null>`max(created_at)`.as('last'),
        ])
        .where('wallet_address', '=', wallet)
        .where('status', '=', 'confirmed')
        .executeTakeFirstOrThrow();
    },

    /** The wallet's place among eligible holders in the latest snapshot (only the top 50 are kept), or null. */
    async rankInLatestSnapshot(wallet: string): Promise<number | null> {
      const snapshot = await db
        .selectFrom('holder_snapshots')
        .select('top')
        .orderBy('taken_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return snapshot?.top.find((h) => h.owner === wallet)?.rank ?? null;
    },
  };
}
