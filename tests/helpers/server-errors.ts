import { Writable } from 'node:stream';

/**
 * Error-level log lines of the servers a test started (startTestApp logs at `error` into this
 * sink). tests/setup fails a test that leaves any behind: an unexpected server error is a failure
 * even when the response looked right. A test that provokes one on purpose takes it with
 * takeServerErrors().
 */
const lines: string[] = [];

export const serverErrorSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(line);
    done();
  },
});

/** The error lines logged so far whose text matches `pattern`, removed from the record. */
export function takeServerErrors(pattern: RegExp): string[] {
  const taken = lines.filter((l) => pattern.test(l));
  const kept = lines.filter((l) => !pattern.test(l));
  lines.length = 0;
  lines.push(...kept);
  return taken;
}

/** Everything still recorded, and the record emptied (the setup file's check). */
export function drainServerErrors(): string[] {
  return lines.splice(0, lines.length);
}
