import type { AppDeps } from '../deps';
import { logJobFailure } from './job-log';

/**
 * Returns expired reservations to stock (and, every ten minutes, deletes rate-limit counters that
 * count for nothing any more): every SWEEP_INTERVAL_SECONDS it ends the pending
 * payments whose time is up (status expired, stock released, payment_events row, 'stock.changed'
 * on the catalog topic) and expires their Stripe Checkout Sessions. Payments are claimed with
 * FOR UPDATE SKIP LOCKED, so any number of instances can run it at once without doing a payment
 * twice or waiting on each other.
 */

/** One sweep; tests call it directly with a `now` in the future. Returns the payments ended. */
export async function sweepExpiredReservations(
  deps: Pick<AppDeps, 'payments'>,
  now: Date = new Date(),
): Promise<number> {
  return deps.payments.expireDuePayments(now);
}

/**
 * Deletes rate-limit counters nobody has touched for a day and wallet sign-in requests that
 * expired a day ago; plain DELETEs, safe on N instances.
 */
export async function sweepRateLimits(
  deps: Pick<AppDeps, 'auth' | 'wallet'>,
  now: Date = new Date(),
): Promise<number> {
  return (await deps.auth.deleteExpiredRateLimits(now)) + (await deps.wallet.deleteExpiredChallenges(now));
}

/** Rate-limit counters are swept at most this often (they only grow slowly). */
const RATE_LIMIT_SWEEP_MS = 10 * 60_000;

export interface RunningJob {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

export function startReservationSweeper(
  deps: Pick<AppDeps, 'payments' | 'auth' | 'wallet' | 'config' | 'logger' | 'jobTicks'>,
): RunningJob {
  const log = deps.logger.child({ job: 'reservation-sweeper' });
  const ticks = deps.jobTicks.track('reservation-sweeper');
  let running: Promise<void> | undefined;
  let stopped = false;
  let lastRateLimitSweep = 0;

  const tick = () => {
    if (stopped || running) return;
    running = sweepExpiredReservations(deps)
      .then(async (ended) => {
        if (ended > 0) log.info({ ended }, 'expired reservations returned to stock');
        if (Date.now() - lastRateLimitSweep >= RATE_LIMIT_SWEEP_MS) {
          lastRateLimitSweep = Date.now();
          const deleted = await sweepRateLimits(deps);
          if (deleted > 0) log.debug({ deleted }, 'old rate-limit counters deleted');
        }
        ticks.completed();
      })
      .catch((err: unknown) => {
        logJobFailure(log, err, 'reservation sweep failed');
      })
      .finally(() => {
        running = undefined;
      });
  };

  const timer = setInterval(tick, deps.config.sweepIntervalSeconds * 1000);
  timer.unref();
  tick();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      ticks.untrack();
    },
  };
}
