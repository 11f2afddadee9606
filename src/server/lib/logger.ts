import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/**
 * Errors are logged without the query parameters a database driver attaches to them (PGlite's
 * errors carry `params`): those can be session tokens, password hashes or shipping details.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const serialized = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  delete serialized.params;
  return serialized;
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

/**
 * The access log line, exactly as `logger.info({ reqId, method, path, status, ms }, 'request')`
 * writes it, but formatted here and handed straight to the logger's destination: pino's work per
 * call (bindings, serializer lookups, the redaction walk over every field) was a tenth of a cached
 * catalogue read (issue 15, benchmark 1), and these fields need none of it (nothing to redact;
 * the strings are JSON-escaped). Written when the logger's level lets info through, like the call.
 * The lines of one turn of the event loop go out in one write at its end (setImmediate), not one
 * write each: under load the write per line was the next largest cost after the response's own.
 */
export function createAccessLog(logger: Logger): AccessLog {
  // The destination pino writes to (pino.symbols is its public name for it).
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[
    pino.symbols.streamSym
  ]!;
  const info = logger.levels.values.info ?? 30;
  let pending = '';
  const flush = () => {
    const lines = pending;
    pending = '';
    stream.write(lines);
  };
  return (reqId, method, path, status, ms) => {
    if (logger.levelVal > info) return;
    if (pending === '') setImmediate(flush);
    pending += `{"level":${info},"time":${Date.now()},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`;
  };
}
