/** PostgreSQL's unique_violation (23505), from pg or PGlite alike. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}

/** pg's message for a query whose answer did not come within the query timeout. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/** Socket errors of a server that is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve now: admin_shutdown, crash_shutdown, cannot_connect_now
 * (57P01-03), too_many_connections (53300); class 08 (connection exception) is matched whole.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What pg (and pg-pool) say when a connection is lost, refused or too slow to come. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // unexpectedly, due to connection timeout
  /^timeout expired$/, // connect timeout of a single client
  /^timeout exceeded when trying to connect$/, // no pooled connection in time
  /^Query read timeout$/,
  /is not queryable$/, // a client whose connection failed earlier
];

/**
 * True when `err` (or an error it was caused by) means the database cannot be reached or cannot
 * serve right now, rather than that the query was wrong: the request answers 503 SERVICE_UNAVAILABLE
 * and a job tries again on its next tick.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
        return true;
      }
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    // Node's AggregateError when every address of a host refused (localhost on IPv4 and IPv6).
    if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isDatabaseUnavailable(inner))) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
