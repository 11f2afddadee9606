import type { AppDeps } from '../deps';
import { isDatabaseUnavailable } from '../db/errors';
import { AppError } from '../lib/app-error';
import { logJobFailure } from './job-log';
import { startPeriodicJob, type RunningJob } from './periodic';

/**
 * The holder-rewards scheduler: every AIRDROP_SCHEDULER_INTERVAL_MS it asks the engine for due
 * work (unfinished runs first, the daily top-50 run once its UTC time has passed, a due random
 * airdrop). The engine holds a PostgreSQL advisory lock while it works, so of N instances one
 * does it and the others skip the tick. Every run's outcome goes to the audit log as
 * process_airdrop (no admin: details.trigger is 'schedule').
 */
export function startAirdropScheduler(
  deps: Pick<AppDeps, 'airdrops' | 'admin' | 'config' | 'logger' | 'jobTicks'>,
): RunningJob {
  let lastFailure: string | undefined;
  const audit = (details: Record<string, unknown>) =>
    deps.admin.audit.recordAndAnnounce({ action: 'process_airdrop', details, actor: null });

  return startPeriodicJob(deps, {
    name: 'airdrop-scheduler',
    intervalMs: deps.config.airdrops.schedulerIntervalMs,
    failureMessage: 'airdrop run failed',
    async pass(log) {
      const { runs } = await deps.airdrops.tick();
      lastFailure = undefined;
      for (const run of runs) {
        log.info({ kind: run.kind, recipients: run.recipients }, 'airdrop run completed');
        await audit({
          success: true,
          kind: run.kind,
          runId: run.runId,
          recipients: run.recipients,
          totalAmountLamports: run.totalLamports.toString(),
        });
      }
    },
    async onFailure(err, log) {
      // Without a chain or a treasury there is nothing to schedule (Process Airdrop says why).
      if (err instanceof AppError && err.code === 'NOT_CONFIGURED') return true;
      logJobFailure(log, err, 'airdrop run failed');
      // The audit log is in the database too: an outage is retried on the next tick, not audited.
      if (isDatabaseUnavailable(err)) return false;
      const message = err instanceof Error ? err.message : String(err);
      // A failure repeated every tick is audited once, until something changes.
      if (message === lastFailure) return false;
      lastFailure = message;
      await audit({ success: false, error: message }).catch(() => undefined);
      return false;
    },
  });
}
