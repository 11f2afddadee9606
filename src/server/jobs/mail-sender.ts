import type { AppDeps } from '../deps';
import { logJobFailure } from './job-log';
import type { RunningJob } from './reservation-sweeper';

/**
 * Sends queued mail: every MAIL_SEND_INTERVAL_MS, and at once when something is queued in this
 * process. Claims rows with FOR UPDATE SKIP LOCKED, so N instances never send one mail twice.
 */
export function startMailSender(deps: Pick<AppDeps, 'mail' | 'config' | 'logger' | 'jobTicks'>): RunningJob {
  const log = deps.logger.child({ job: 'mail-sender' });
  const ticks = deps.jobTicks.track('mail-sender');
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = deps.mail
      .sendDue()
      .then(() => ticks.completed())
      .catch((err: unknown) => logJobFailure(log, err, 'mail sending failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };

  const off = deps.mail.onQueued(() => setImmediate(tick));
  const timer = setInterval(tick, deps.config.mail.sendIntervalMs);
  timer.unref();
  tick();

  return {
    async stop() {
      stopped = true;
      off();
      clearInterval(timer);
      await running;
      ticks.untrack();
    },
  };
}
