import { sql } from 'kysely';
import type { RewardPool } from '#common/rewards';
import type { Db } from '#server/db/client';
import type { AirdropKind } from '#server/db/schema';
import { createRewardPoolsRepository } from './reward-pools.repository';

/**
 * The rewards engine's tables: holder snapshots, runs with their batches and claims, and the
 * random airdrop's schedule (the pools' ledger is reward-pools.repository's). A run is written whole (debit, claims, batches) in
 * one transaction before anything is sent; batches then move planned → sent → landed.
 */

export interface PlannedTransfer {
  wallet: string;
  lamports: bigint;
}

export interface OpenBatch {
  id: string;
  runId: string;
  batchNo: number;
  status: 'planned' | 'sent' | 'landed';
  signature: string | null;
  wire: string | null;
  lastValidBlockHeight: bigint | null;
  attempts: number;
  transfers: PlannedTransfer[];
}

export interface NewRun {
  kind: AirdropKind;
  trigger: 'schedule' | 'admin';
  runDate: string | null;
  pool: RewardPool;
  poolCents: number;
  solPriceMicros: bigint;
  snapshotId: string | null;
  batches: PlannedTransfer[][];
  /** A random airdrop draws the next one's time in the same transaction. */
  nextRandomAt?: Date;
}

async function upsertNextRandomAt(db: Db, at: Date): Promise<void> {
  await db
    .insertInto('airdrop_schedule')
    .values({ kind: 'random', next_at: at })
    .onConflict((oc) => oc.column('kind').doUpdateSet({ next_at: at }))
    .execute();
}

export function createAirdropRunsRepository(db: Db) {
  return {
    async saveSnapshot(holderCount: number, top: Array<{ owner: string; amount: bigint }>): Promise<string> {
      const row = await db
        .insertInto('holder_snapshots')
        .values({
          holder_count: holderCount,
          top: JSON.stringify(
            top.map((h, i) => ({ rank: i + 1, owner: h.owner, amount: h.amount.toString() })),
          ),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return String(row.id);
    },

    async hasDailyRun(kind: AirdropKind, runDate: string): Promise<boolean> {
      const row = await db
        .selectFrom('airdrop_runs')
        .select('id')
        .where('kind', '=', kind)
        .where('run_date', '=', runDate)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Writes a run whole: the pool's debit, one claim per transfer, one batch per transaction.
     * Null when the day's scheduled run already exists (another instance planned it).
     */
    async insertRun(run: NewRun): Promise<string | null> {
      const recipients = run.batches.reduce((n, b) => n + b.length, 0);
      const total = run.batches.flat().reduce((sum, t) => sum + t.lamports, 0n);
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('airdrop_runs')
          .values({
            kind: run.kind,
            trigger: run.trigger,
            run_date: run.runDate,
            status: recipients === 0 ? 'completed' : 'sending',
            pool_cents: run.poolCents,
            sol_price_micros: run.solPriceMicros.toString(),
            recipients,
            total_lamports: total.toString(),
            snapshot_id: run.snapshotId,
            ...(recipients === 0 ? { completed_at: new Date() } : {}),
          })
          .onConflict((oc) => oc.constraint('airdrop_runs_daily_once').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) return null;
        const runId = inserted.id;
        if (run.nextRandomAt) await upsertNextRandomAt(trx, run.nextRandomAt);
        if (run.poolCents > 0) {
          await createRewardPoolsRepository(trx).insertPayout(runId, run.pool, run.poolCents);
        }
        for (const [i, transfers] of run.batches.entries()) {
          const batch = await trx
            .insertInto('airdrop_batches')
            .values({ run_id: runId, batch_no: i + 1 })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('airdrop_claims')
            .values(
              transfers.map((t) => ({
                wallet_address: t.wallet,
                amount_lamports: t.lamports.toString(),
                kind: run.kind,
                run_id: runId,
                status: 'planned' as const,
                batch_id: batch.id,
              })),
            )
            .execute();
        }
        return runId;
      });
    },

    /** Runs not completed, oldest first. */
    async openRuns() {
      return db
        .selectFrom('airdrop_runs')
        .select(['id', 'kind', 'recipients', 'total_lamports'])
        .where('status', '<>', 'completed')
        .orderBy('created_at')
        .execute();
    },

    async openBatches(runId: string): Promise<OpenBatch[]> {
      const batches = await db
        .selectFrom('airdrop_batches')
        .selectAll()
        .where('run_id', '=', runId)
        .where('status', '<>', 'landed')
        .orderBy('batch_no')
        .execute();
      if (batches.length === 0) return [];
      const claims = await db
        .selectFrom('airdrop_claims')
        .select(['batch_id', 'wallet_address', sql<string>`amount_lamports::text`.as('lamports')])
        .where(
          'batch_id',
          'in',
          batches.map((b) => b.id),
        )
        .orderBy('wallet_address')
        .execute();
      return batches.map((b) => ({
        id: String(b.id),
        runId: b.run_id,
        batchNo: b.batch_no,
        status: b.status,
        signature: b.signature,
        wire: b.wire,
        lastValidBlockHeight: b.last_valid_block_height === null ? null : BigInt(b.last_valid_block_height),
        attempts: b.attempts,
        transfers: claims
          .filter((c) => String(c.batch_id) === String(b.id))
          .map((c) => ({ wallet: c.wallet_address, lamports: BigInt(c.lamports) })),
      }));
    },

    /** Written (and committed) before the transaction is sent. */
    async markSent(batchId: string, sent: { signature: string; wire: string; lastValidBlockHeight: bigint }) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('airdrop_batches')
          .set((eb) => ({
            status: 'sent',
            signature: sent.signature,
            wire: sent.wire,
            last_valid_block_height: sent.lastValidBlockHeight.toString(),
            attempts: eb('attempts', '+', 1),
            updated_at: new Date(),
          }))
          .where('id', '=', batchId)
          .execute();
        await trx
          .updateTable('airdrop_claims')
          .set({ status: 'sent', transaction_signature: sent.signature })
          .where('batch_id', '=', batchId)
          .execute();
      });
    },

    /** The batch's transaction can never land (expired or failed on the chain): plan it again. */
    async markReplan(batchId: string) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('airdrop_batches')
          .set({
            status: 'planned',
            signature: null,
            wire: null,
            last_valid_block_height: null,
            updated_at: new Date(),
          })
          .where('id', '=', batchId)
          .where('status', '=', 'sent')
          .execute();
        await trx
          .updateTable('airdrop_claims')
          .set({ status: 'planned', transaction_signature: null })
          .where('batch_id', '=', batchId)
          .execute();
      });
    },

    async markLanded(batchId: string, signature: string) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('airdrop_batches')
          .set({ status: 'landed', updated_at: new Date() })
          .where('id', '=', batchId)
          .execute();
        // The claims take the time they were paid: the admin's age buckets and the wallet's last airdrop.
        await trx
          .updateTable('airdrop_claims')
          .set({ status: 'confirmed', transaction_signature: signature, created_at: sql`now()` })
          .where('batch_id', '=', batchId)
          .execute();
      });
    },

    async finishRun(runId: string, error: string | null) {
      await db
        .updateTable('airdrop_runs')
        .set(
          error === null
            ? { status: 'completed', error: null, completed_at: new Date() }
            : { status: 'failed', error: error.slice(0, 1000) },
        )
        .where('id', '=', runId)
        .execute();
    },

    async nextRandomAt(): Promise<Date | null> {
      const row = await db
        .selectFrom('airdrop_schedule')
        .select('next_at')
        .where('kind', '=', 'random')
        .executeTakeFirst();
      return row ? new Date(row.next_at) : null;
    },

    setNextRandomAt: (at: Date) => upsertNextRandomAt(db, at),

    /** When the engine first saw this database: recorded as `at` the first time, kept after. */
    async firstSeen(at: Date): Promise<Date> {
      await db
        .insertInto('airdrop_first_seen')
        .values({ at })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return (await this.readFirstSeen()) ?? at;
    },

    async readFirstSeen(): Promise<Date | null> {
      const row = await db.selectFrom('airdrop_first_seen').select('at').executeTakeFirst();
      return row ? new Date(row.at) : null;
    },
  };
}

export type AirdropRunsRepository = ReturnType<typeof createAirdropRunsRepository>;
