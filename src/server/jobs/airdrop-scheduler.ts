import type { AppDeps } from '../deps';
import { isDatabaseUnavailable } from '../db/errors';
import { AppError } from '../lib/app-error';
import { logJobFailure } from './job-log';
import type { RunningJob } from './reservation-sweeper';

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
  const log = deps.logger.child({ job: 'airdrop-scheduler' });
  const interval = deps.config.airdrops.schedulerIntervalMs;
  let running: Promise<void> | undefined;
  let stopped = false;
  let lastFailure: string | undefined;
  // Off (interval 0): no loop, so no lag to report.
  const ticks = interval > 0 ? deps.jobTicks.track('airdrop-scheduler') : undefined;

  const audit = (details: Record<string, unknown>) =>
    deps.admin.audit.recordAndAnnounce({ action: 'process_airdrop', details, actor: null });

  const tick = () => {
    if (stopped || running) return;
    running = deps.airdrops
      .tick()
      .then(async ({ runs }) => {
        lastFailure = undefined;
        ticks?.completed();
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
      })
      .catch(async (err: unknown) => {
        // Without a chain or a treasury there is nothing to schedule (Process Airdrop says why).
        if (err instanceof AppError && err.code === 'NOT_CONFIGURED') {
          ticks?.completed();
          return;
        }
        logJobFailure(log, err, 'airdrop run failed');
        // The audit log is in the database too: an outage is retried on the next tick, not audited.
        if (isDatabaseUnavailable(err)) return;
        const message = err instanceof Error ? err.message : String(err);
        // A failure repeated every tick is audited once, until something changes.
        if (message === lastFailure) return;
        lastFailure = message;
        await audit({ success: false, error: message }).catch(() => undefined);
      })
      .finally(() => {
        running = undefined;
      });
  };

  const timer = interval > 0 ? setInterval(tick, interval) : undefined;
  timer?.unref();
  if (interval > 0) tick();

  return {
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      ticks?.untrack();
    },
  };
}
