import { createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import { AIRDROP_GOAL_USD } from '#common/progress';
import {
  centsToLamports,
  MIN_AIRDROP_CENTS,
  randomAirdropDelayMs,
  top50BudgetCents,
  top50Shares,
  TOP_HOLDERS,
  usdToMicros,
  type Holding,
} from '#common/rewards';
import type { Database } from '#server/db/client';
import type { Config } from '#server/config';
import { ADVISORY_LOCK_KEYS, tryWithAdvisoryLock } from '#server/db/locks';
import { AppError } from '#server/lib/app-error';
import { crashPoint } from '#server/lib/crash-point';
import type { Logger } from '#server/lib/logger';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { AirdropEngine } from './airdrops-admin.service';
import { createAirdropRunsRepository, type OpenBatch, type PlannedTransfer } from './airdrop-runs.repository';
import { createRewardPoolsRepository } from './reward-pools.repository';
import { awaitBatch, batchOutcome, sendBatch, signBatch } from './airdrop-sender';
import { eligibleOwners, readHolders, topEligible, type AccountSource } from './holder-snapshot';
import type { HolderTally } from './holder-tally';

/**
 * The holder-rewards engine (docs/rewards.md): the daily top-50 airdrop, random airdrops, and the
 * resumable sending of both. Every run is planned whole in the database before a lamport moves;
 * sending then only ever moves a batch planned → sent (signature recorded first) → landed, and a
 * sent batch is re-sent or re-planned only once the chain says it did not land and cannot.
 * One instance at a time (advisory lock); the scheduler job calls `tick`, the admin `run`.
 */

export interface RunSummary {
  runId: string | null;
  recipients: number;
  totalLamports: bigint;
}

export type ScheduledRun = RunSummary & { kind: 'top50' | 'random' };

export interface AirdropEngineService extends AirdropEngine {
  /** Scheduled work, under the lock: unfinished runs, the daily run when due, a due random airdrop. */
  tick(): Promise<{ ran: boolean; runs: ScheduledRun[] }>;
  /** Pays what unfinished runs still owe. */
  resume(): Promise<void>;
}

const CONFIRM = { timeoutMs: 30_000, pollMs: 400 };
const MAX_ATTEMPTS = 5;

export function createAirdropEngine(deps: {
  config: Config;
  database: Database;
  logger: Logger;
  chain: Pick<ChainService, 'requireAccounts'>;
  /** The chain's JSON-RPC transport (the holder snapshot reads its large answers untransformed). */
  transport: RpcTransport;
  market: MarketService;
  random?: () => number;
  now?: () => Date;
}): AirdropEngineService {
  const { config, transport } = deps;
  const rpc = createSolanaRpcFromTransport(transport);
  // A cluster's answer is read over HTTP as it arrives; the local ledger's comes whole, in process.
  const snapshotSource: AccountSource =
    config.solana.rpcUrl && !config.solana.localLedger ? { url: config.solana.rpcUrl } : { transport };
  const repo = createAirdropRunsRepository(deps.database.db);
  const pools = createRewardPoolsRepository(deps.database.db);
  const random = deps.random ?? Math.random;
  const now = deps.now ?? (() => new Date());
  const log = deps.logger.child({ module: 'airdrops' });

  async function treasuryAndHolders() {
    const accounts = await deps.chain.requireAccounts();
    if (!accounts.treasury) {
      throw new AppError(
        'NOT_CONFIGURED',
        'Airdrops need the treasury key (TREASURY_SECRET_KEY or TREASURY_KEY_FILE)',
      );
    }
    const excluded = new Set([
      ...config.airdrops.excludedWallets,
      accounts.treasury.address,
      accounts.shopWallet,
    ]);
    const holders = await readHolders(snapshotSource, accounts.mint, accounts.tokenProgram, excluded);
    return { treasury: accounts.treasury, holders };
  }

  async function solPriceMicros(): Promise<bigint> {
    return usdToMicros((await deps.market.solPrice()).solana.usd);
  }

  function batches(transfers: PlannedTransfer[]): PlannedTransfer[][] {
    const size = config.airdrops.batchSize;
    const out: PlannedTransfer[][] = [];
    for (let i = 0; i < transfers.length; i += size) out.push(transfers.slice(i, i + size));
    return out;
  }

  /** The top-50 airdrop the pool pays now: who, how much (lamports), and the cents it debits. */
  async function planTop50() {
    const { holders } = await treasuryAndHolders();
    const holderCount = holders.holderCount;
    const top = await topEligible(rpc, holders.ranking(), TOP_HOLDERS);
    const poolCents = await pools.balance('buyback');
    const shares = top50Shares(top50BudgetCents(poolCents), top).filter((s) => !s.skipped);
    const price = shares.length > 0 ? await solPriceMicros() : 1n;
    const transfers = shares
      .map((s) => ({ wallet: s.owner, lamports: centsToLamports(s.cents, price), cents: s.cents }))
      .filter((t) => t.lamports > 0n);
    return {
      holderCount,
      top,
      price,
      debitCents: transfers.reduce((sum, t) => sum + t.cents, 0),
      transfers: transfers.map(({ wallet, lamports }) => ({ wallet, lamports })),
    };
  }

  async function sendOne(
    batch: OpenBatch,
    treasury: Awaited<ReturnType<typeof treasuryAndHolders>>['treasury'],
  ) {
    let state: { signature: string; wire: string; lastValidBlockHeight: bigint } | null =
      batch.status === 'sent' && batch.signature && batch.wire && batch.lastValidBlockHeight !== null
        ? { signature: batch.signature, wire: batch.wire, lastValidBlockHeight: batch.lastValidBlockHeight }
        : null;
    let lastError = 'not sent';
    // A batch found 'sent' by a resumed run may never have left: ask once, without waiting.
    let justSent = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (state) {
        const outcome = justSent
          ? await awaitBatch(rpc, state.signature, state.lastValidBlockHeight, CONFIRM)
          : await batchOutcome(rpc, state.signature, state.lastValidBlockHeight);
        if (outcome === 'landed') {
          await repo.markLanded(batch.id, state.signature);
          crashPoint('airdrops:batch-landed');
          return;
        }
        if (outcome === 'pending') {
          // Not seen and still valid: the same bytes again (it cannot land twice).
          const err = await sendBatch(rpc, state.wire);
          if (err) lastError = err.message;
          justSent = true;
          continue;
        }
        lastError = outcome === 'failed' ? `batch ${batch.batchNo} failed on the chain` : 'blockhash expired';
        await repo.markReplan(batch.id);
        state = null;
      }
      const signed = await signBatch(
        rpc,
        treasury,
        batch.transfers,
        config.airdrops.priorityFeeMicroLamports,
      );
      await repo.markSent(batch.id, signed);
      crashPoint('airdrops:batch-recorded', { batchNo: batch.batchNo });
      const err = await sendBatch(rpc, signed.wire);
      if (err) {
        lastError = err.message;
        log.warn({ err, batch: batch.batchNo }, 'airdrop batch send failed; checking whether it landed');
      }
      crashPoint('airdrops:batch-sent', { batchNo: batch.batchNo });
      state = signed;
      justSent = true;
    }
    throw new Error(
      `Airdrop batch ${batch.batchNo} did not land after ${MAX_ATTEMPTS} attempts: ${lastError}`,
    );
  }

  async function execute(runId: string): Promise<void> {
    const open = await repo.openBatches(runId);
    try {
      if (open.length > 0) {
        const accounts = await deps.chain.requireAccounts();
        if (!accounts.treasury) throw new AppError('NOT_CONFIGURED', 'Airdrops need the treasury key');
        for (const batch of open) await sendOne(batch, accounts.treasury);
      }
      await repo.finishRun(runId, null);
    } catch (err) {
      await repo.finishRun(runId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
      throw err;
    }
  }

  async function resume(): Promise<void> {
    for (const run of await repo.openRuns()) {
      log.info({ run: run.id, kind: run.kind }, 'resuming an unfinished airdrop');
      await execute(run.id);
    }
  }

  async function top50Run(trigger: 'admin' | 'schedule', runDate: string | null): Promise<RunSummary> {
    const plan = await planTop50();
    const snapshotId = await repo.saveSnapshot(plan.holderCount, plan.top);
    crashPoint('airdrops:after-snapshot');
    const runId = await repo.insertRun({
      kind: 'top50',
      trigger,
      runDate,
      pool: 'buyback',
      poolCents: plan.debitCents,
      solPriceMicros: plan.price,
      snapshotId,
      batches: batches(plan.transfers),
    });
    if (!runId) return { runId: null, recipients: 0, totalLamports: 0n };
    crashPoint('airdrops:after-plan');
    await execute(runId);
    return {
      runId,
      recipients: plan.transfers.length,
      totalLamports: plan.transfers.reduce((sum, t) => sum + t.lamports, 0n),
    };
  }

  /**
   * The winner: drawn by holdings among the ranked holders (the draw `pickByHoldings` makes over
   * the whole ranking, found without sorting it), redrawn without an owner the draw found ineligible.
   */
  async function drawWinner(holders: HolderTally): Promise<Holding | null> {
    const ineligible = new Set<string>();
    for (;;) {
      const pick = holders.pick(random(), ineligible);
      if (!pick) return null;
      if ((await eligibleOwners(rpc, [pick.owner])).has(pick.owner)) return pick;
      ineligible.add(pick.owner);
    }
  }

  async function randomRun(): Promise<RunSummary | null> {
    const stats = await deps.market.tokenStats();
    if ((stats.pairs[0]?.fdv ?? 0) < AIRDROP_GOAL_USD) return null;
    const due = await repo.nextRandomAt();
    const at = now();
    const next = new Date(at.getTime() + randomAirdropDelayMs(random()));
    if (!due) {
      await repo.setNextRandomAt(next);
      return null;
    }
    if (at < due) return null;
    const poolCents = await pools.balance('random');
    const { holders } = await treasuryAndHolders();
    const winner = poolCents >= MIN_AIRDROP_CENTS ? await drawWinner(holders) : null;
    if (!winner) {
      await repo.setNextRandomAt(next); // nothing to give: the pool waits for the next draw
      return null;
    }
    const price = await solPriceMicros();
    const transfer = { wallet: winner.owner, lamports: centsToLamports(poolCents, price) };
    const runId = await repo.insertRun({
      kind: 'random',
      trigger: 'schedule',
      runDate: null,
      pool: 'random',
      poolCents,
      solPriceMicros: price,
      snapshotId: null,
      batches: [[transfer]],
      nextRandomAt: next,
    });
    if (runId) await execute(runId);
    return { runId, recipients: 1, totalLamports: transfer.lamports };
  }

  /** The daily slot (AIRDROP_DAILY_UTC_TIME) on the UTC day of `at`. */
  function slotOn(at: Date): Date {
    const [h, m] = config.airdrops.dailyUtcTime.split(':').map(Number) as [number, number];
    return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), h, m));
  }

  const DAY_MS = 86_400_000;

  /**
   * The UTC day of `at` if its daily slot has passed, else null. A slot that passed before the
   * engine first saw the database is never due: a new shop pays nobody before anyone has looked.
   */
  function dueDay(at: Date, firstSeen: Date): string | null {
    const slot = slotOn(at);
    return at >= slot && slot >= firstSeen ? slot.toISOString().slice(0, 10) : null;
  }

  /**
   * When the next daily run is due: a due slot not yet run (the next tick runs it), else the next
   * one. Null when the shop cannot airdrop (no token or no treasury key).
   */
  async function nextDailyAt(): Promise<Date | null> {
    const accounts = await deps.chain.requireAccounts().catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'NOT_CONFIGURED') return null;
      return undefined; // the chain unreachable for now: the schedule stands
    });
    if (accounts === null || (accounts && !accounts.treasury)) return null;
    const at = now();
    const firstSeen = (await repo.readFirstSeen()) ?? at;
    let slot = slotOn(at);
    if (
      slot <= at &&
      slot >= firstSeen &&
      !(await repo.hasDailyRun('top50', slot.toISOString().slice(0, 10)))
    ) {
      return slot;
    }
    if (slot <= at) slot = new Date(slot.getTime() + DAY_MS);
    while (slot < firstSeen) slot = new Date(slot.getTime() + DAY_MS);
    return slot;
  }

  async function locked<T>(fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    return tryWithAdvisoryLock(deps.database, ADVISORY_LOCK_KEYS.airdrops, fn);
  }

  return {
    async preview() {
      const plan = await planTop50();
      return {
        recipients: plan.transfers.length,
        totalLamports: plan.transfers.reduce((sum, t) => sum + t.lamports, 0n),
      };
    },

    async run() {
      const result = await locked(async () => {
        await resume();
        return top50Run('admin', null);
      });
      if (!result.ran)
        throw new AppError('CONFLICT', 'An airdrop is being processed right now; try again in a minute');
      return { recipients: result.value.recipients, totalLamports: result.value.totalLamports };
    },

    resume: async () => {
      await locked(resume);
    },

    nextDailyAt,

    async tick() {
      // A shop that cannot airdrop (no token or no treasury) has nothing due: it says so before
      // asking the market feeds or the chain anything (the scheduler stays quiet about it).
      const accounts = await deps.chain.requireAccounts();
      if (!accounts.treasury) {
        throw new AppError(
          'NOT_CONFIGURED',
          'Airdrops need the treasury key (TREASURY_SECRET_KEY or TREASURY_KEY_FILE)',
        );
      }
      // The first tick that could airdrop records when the shop started: slots before it are skipped.
      const firstSeen = await repo.firstSeen(now());
      const result = await locked(async () => {
        const runs: ScheduledRun[] = [];
        await resume();
        const day = dueDay(now(), firstSeen);
        if (day && !(await repo.hasDailyRun('top50', day))) {
          const summary = await top50Run('schedule', day);
          if (summary.runId) runs.push({ ...summary, kind: 'top50' });
        }
        const random = await randomRun();
        if (random?.runId) runs.push({ ...random, kind: 'random' });
        return runs;
      });
      return result.ran ? { ran: true, runs: result.value } : { ran: false, runs: [] };
    },
  };
}
