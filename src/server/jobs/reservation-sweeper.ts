import type { AppDeps } from '../deps';
import { startPeriodicJob, type RunningJob } from './periodic';

export type { RunningJob } from './periodic';

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

export function startReservationSweeper(
  deps: Pick<AppDeps, 'payments' | 'auth' | 'wallet' | 'config' | 'logger' | 'jobTicks'>,
): RunningJob {
  let lastRateLimitSweep = 0;
  return startPeriodicJob(deps, {
    name: 'reservation-sweeper',
    intervalMs: deps.config.sweepIntervalSeconds * 1000,
    failureMessage: 'reservation sweep failed',
    async pass(log) {
      const ended = await sweepExpiredReservations(deps);
      if (ended > 0) log.info({ ended }, 'expired reservations returned to stock');
      if (Date.now() - lastRateLimitSweep >= RATE_LIMIT_SWEEP_MS) {
        lastRateLimitSweep = Date.now();
        const deleted = await sweepRateLimits(deps);
        if (deleted > 0) log.debug({ deleted }, 'old rate-limit counters deleted');
      }
    },
  });
}
