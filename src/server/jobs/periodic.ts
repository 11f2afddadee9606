import type { AppDeps } from '../deps';
import { logJobFailure } from './job-log';

export interface RunningJob {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** The job's name in logs and in /metrics' job lag. */
  name: string;
  /** How often a pass runs; 0 means the job is off (no timer, no pass, no lag reported). */
  intervalMs: number;
  /** One pass. A pass that resolves counts as completed (job lag); one that throws does not. */
  pass(log: AppDeps['logger']): Promise<void>;
  /** Logged (as a warning while the database is out of reach) when a pass throws. */
  failureMessage: string;
  /**
   * A failed pass the job handles itself (audits it, or knows it is not a failure); resolves true
   * when the pass counts as completed after all. Without it, the failure is only logged.
   */
  onFailure?(err: unknown, log: AppDeps['logger']): Promise<boolean>;
  /**
   * Something that wakes the job at once besides its timer (a mail queued, a refund asked for):
   * given the kick, returns how to stop listening. A job with one never lets a wake-up go: a tick
   * during a pass runs one more pass right after it.
   */
  wake?(kick: () => void): () => void;
  /** Work of its own to wait for when the job stops, after its pass. */
  onStop?(): Promise<void>;
}

/**
 * The one loop every periodic job runs on: a pass at start and every `intervalMs` (the timer does
 * not keep the process alive), never two passes at once in this process, each completed pass
 * recorded for the job-lag gauge, failures logged the same way, and `stop()` that waits for the
 * pass in progress (graceful shutdown).
 */
export function startPeriodicJob(
  deps: Pick<AppDeps, 'logger' | 'jobTicks'>,
  job: PeriodicJobOptions,
): RunningJob {
  const log = deps.logger.child({ job: job.name });
  const on = job.intervalMs > 0;
  const ticks = on ? deps.jobTicks.track(job.name) : undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const tick = () => {
    if (stopped) return;
    if (running) {
      if (job.wake) again = true;
      return;
    }
    running = job
      .pass(log)
      .then(() => ticks?.completed())
      .catch(async (err: unknown) => {
        if (job.onFailure) {
          if (await job.onFailure(err, log).catch(() => false)) ticks?.completed();
          return;
        }
        logJobFailure(log, err, job.failureMessage);
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          tick();
        }
      });
  };

  const unsubscribe = on && job.wake ? job.wake(() => setImmediate(tick)) : undefined;
  const timer = on ? setInterval(tick, job.intervalMs) : undefined;
  timer?.unref();
  if (on) tick();

  return {
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (timer) clearInterval(timer);
      while (running) await running;
      await job.onStop?.();
      ticks?.untrack();
    },
  };
}
