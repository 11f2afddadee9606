import { isDatabaseUnavailable } from '../db/errors';
import type { Logger } from '../lib/logger';

/**
 * A job's failed tick: an error while the database is out of reach is a warning (the next tick
 * tries again and the outage is reported where it is met); anything else is an error.
 */
export function logJobFailure(log: Logger, err: unknown, message: string): void {
  if (isDatabaseUnavailable(err)) {
    const reason = err instanceof Error ? err.message : String(err);
    log.warn({ reason }, `${message}: database unavailable, trying again on the next tick`);
  } else {
    log.error({ err }, message);
  }
}
