import type { AppDeps } from '../deps';
import { logJobFailure } from './job-log';
import { startPeriodicJob, type RunningJob } from './periodic';

/**
 * The one loop that finds crypto payments and Buy Token purchases on the chain: every
 * PAYMENT_WATCH_INTERVAL_MS each leases its watched rows (db/lease.ts: FOR UPDATE SKIP LOCKED, so
 * N instances share them without doing one twice), reads what names each reference through the
 * one reference watcher (modules/chain/reference-watch.ts: the whole history, oldest first) and
 * records it by its own rules. This pass is also the reconciliation: a transfer an RPC had not
 * indexed yet is found on a later one. On the local ledger each landed transaction is also checked
 * at once, so an order shows within a moment of the payment.
 */
export function startPaymentWatcher(
  deps: Pick<AppDeps, 'cryptoPayments' | 'tokenSales' | 'chain' | 'config' | 'logger' | 'jobTicks'>,
): RunningJob {
  const log = deps.logger.child({ job: 'payment-watcher' });
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const unsubscribe = deps.chain.onTransaction((keys) => {
    if (stopped) return;
    const check = Promise.all([
      deps.cryptoPayments.checkAddresses(keys),
      deps.tokenSales.checkAddresses(keys),
    ])
      .then(() => undefined)
      .catch((err: unknown) => logJobFailure(log, err, 'payment check failed'))
      .finally(() => inFlight.delete(check));
    inFlight.add(check);
  });

  return startPeriodicJob(deps, {
    name: 'payment-watcher',
    intervalMs: deps.config.solana.watchIntervalMs,
    failureMessage: 'payment watch failed',
    async pass() {
      const [confirmed, purchases] = await Promise.all([
        deps.cryptoPayments.watch(),
        deps.tokenSales.watch(),
      ]);
      if (confirmed > 0) log.info({ confirmed }, 'crypto payments confirmed');
      if (purchases > 0) log.info({ purchases }, 'token purchases completed');
    },
    async onStop() {
      stopped = true;
      unsubscribe();
      await Promise.all(inFlight);
    },
  });
}
