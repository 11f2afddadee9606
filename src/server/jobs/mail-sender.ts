import type { AppDeps } from '../deps';
import { startPeriodicJob, type RunningJob } from './periodic';

/**
 * Sends queued mail: every MAIL_SEND_INTERVAL_MS, and at once when something is queued in this
 * process. Claims rows with FOR UPDATE SKIP LOCKED, so N instances never send one mail twice.
 */
export function startMailSender(deps: Pick<AppDeps, 'mail' | 'config' | 'logger' | 'jobTicks'>): RunningJob {
  return startPeriodicJob(deps, {
    name: 'mail-sender',
    intervalMs: deps.config.mail.sendIntervalMs,
    failureMessage: 'mail sending failed',
    pass: () => deps.mail.sendDue().then(() => undefined),
    wake: (kick) => deps.mail.onQueued(kick),
  });
}
