import type { AppDeps } from '../deps';
import { logJobFailure } from './job-log';
import type { RunningJob } from './reservation-sweeper';

/** How often the worker looks for due refunds when nothing wakes it. */
export const REFUND_WORKER_INTERVAL_MS = 3_000;

/**
 * Carries out refunds (modules/refunds): every few seconds, and at once when a refund was queued
 * (`refunds.kick()` after its commit), one pass leases the due refunds (FOR UPDATE SKIP LOCKED, so
 * N instances share them without doing one twice) and carries each out: a Stripe refund, a
 * transfer back to the paying wallet, or a look on the chain for one an admin signed. A pass that
 * finds the database out of reach is a warning; the next one tries again.
 */
export function startRefundWorker(
  deps: Pick<AppDeps, 'refunds' | 'logger' | 'jobTicks'>,
  intervalMs: number = REFUND_WORKER_INTERVAL_MS,
): RunningJob {
  const log = deps.logger.child({ job: 'refund-worker' });
  const ticks = deps.jobTicks.track('refund-worker');
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true; // a kick during a pass: one more pass right after it
      return;
    }
    running = deps.refunds
      .processDue()
      .then((count) => {
        if (count > 0) log.debug({ count }, 'refunds processed');
        ticks.completed();
      })
      .catch((err: unknown) => logJobFailure(log, err, 'refund pass failed'))
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          tick();
        }
      });
  };

  const unsubscribe = deps.refunds.onKick(() => setImmediate(tick));
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      while (running) await running;
      ticks.untrack();
    },
  };
}
