import type { AppDeps } from '../deps';
import { startPeriodicJob, type RunningJob } from './periodic';

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
  return startPeriodicJob(deps, {
    name: 'refund-worker',
    intervalMs,
    failureMessage: 'refund pass failed',
    async pass(log) {
      const count = await deps.refunds.processDue();
      if (count > 0) log.debug({ count }, 'refunds processed');
    },
    wake: (kick) => deps.refunds.onKick(kick),
  });
}
