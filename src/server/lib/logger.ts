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
