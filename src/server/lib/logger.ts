import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/**
 * Errors are logged without the query parameters a database driver attaches to them (PGlite's
 * errors carry `params`): those can be session tokens, password hashes or shipping details.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  // pino's serializer tags the error it reads; a frozen one (some libraries freeze their errors)
  // would make it throw, and the log line, and whatever was logging it, fail.
  const taggable = Object.isExtensible(err) ? err : extensibleCopy(err);
  const serialized = pino.stdSerializers.err(taggable) as unknown as Record<string, unknown>;
  delete serialized.params;
  return serialized;
}

/** The same error (prototype, message, stack, cause, own fields) as an object pino may tag. */
function extensibleCopy(err: Error): Error {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(err) as object) as Error, err);
  copy.message = err.message;
  copy.stack = err.stack;
  if ('cause' in err) copy.cause = err.cause;
  return copy;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    serializers: { err: serializeError },
    redact: { paths: ['req.headers.cookie', 'password', '*.password', 'secret', '*.secret'], remove: true },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Writes a request's access log line. */
export type AccessLog = (reqId: string, method: string, path: string, status: number, ms: number) => void;

/** Access log lines are written together once this many characters wait (about 90 lines)... */
export const ACCESS_LOG_FLUSH_CHARS = 16 * 1024;
/** ...or this long after the first of them waits, whichever comes first. */
export const ACCESS_LOG_FLUSH_MS = 50;

/** Access logs holding lines not written yet. */
const unwritten = new Set<() => void>();
let flushOnExit = false;

/** Writes every access log's waiting lines now; the process does it as it exits. */
export function flushAccessLogs(): void {
  for (const write of unwritten) {
    try {
      write();
    } catch {
      // A destination already closed (a test's) has nowhere to write to.
    }
  }
}

/**
 * The access log line, exactly as `logger.info({ reqId, method, path, status, ms }, 'request')`
 * writes it, but formatted here and handed straight to the logger's destination: pino's work per
 * call (bindings, serializer lookups, the redaction walk over every field) was a tenth of a cached
 * catalogue read (bench/catalogue-api.ts), and these fields need none of it (nothing to redact;
 * the strings are JSON-escaped). Written when the logger's level lets info through, like the call.
 * Lines are buffered as a web server's access log is: written in one go once 16 KB wait or 50 ms
 * after the first of them, and when the process exits; under load a write per request was the
 * largest cost of an answer after the response's own. A process killed outright loses at
 * most those 50 ms of access lines; pino's own lines (errors, warnings) are written at once.
 */
export function createAccessLog(logger: Logger): AccessLog {
  // The destination pino writes to (pino.symbols is its public name for it).
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[
    pino.symbols.streamSym
  ]!;
  const info = logger.levels.values.info ?? 30;
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    unwritten.delete(flush);
    const lines = pending;
    pending = '';
    if (lines !== '') stream.write(lines);
  };
  if (!flushOnExit) {
    flushOnExit = true;
    process.on('exit', flushAccessLogs);
  }
  return (reqId, method, path, status, ms) => {
    if (logger.levelVal > info) return;
    if (pending === '') {
      timer = setTimeout(flush, ACCESS_LOG_FLUSH_MS).unref();
      unwritten.add(flush);
    }
    pending += `{"level":${info},"time":${Date.now()},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`;
    if (pending.length >= ACCESS_LOG_FLUSH_CHARS) flush();
  };
}
