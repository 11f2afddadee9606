import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_LOG_FLUSH_CHARS,
  ACCESS_LOG_FLUSH_MS,
  createAccessLog,
  createLogger,
  flushAccessLogs,
} from './logger';

function capture() {
  const lines: string[] = [];
  const counter = { writes: 0 };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      counter.writes++;
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream, counter };
}

describe('error serializer', () => {
  it('logs a frozen error (some libraries freeze theirs) instead of throwing', () => {
    const { lines, stream } = capture();
    const logger = createLogger('info', stream);
    class RpcError extends Error {}
    const err = Object.freeze(Object.assign(new RpcError('node unreachable'), { code: 'ETIMEDOUT' }));
    expect(() => logger.warn({ err }, 'payment check failed')).not.toThrow();
    const line = JSON.parse(lines[0]!) as { err: Record<string, unknown>; msg: string };
    expect(line.msg).toBe('payment check failed');
    expect(line.err).toMatchObject({ type: 'RpcError', message: 'node unreachable', code: 'ETIMEDOUT' });
    expect(line.err.stack).toContain('node unreachable');
  });
});

describe('access log', () => {
  it('writes the line logger.info writes for the same fields, the waiting lines in one write', async () => {
    const { lines, stream, counter } = capture();
    const logger = createLogger('info', stream);
    const fields = { reqId: 'abc-1=', method: 'GET', path: '/api/p"ro\\ducts\u0001', status: 304, ms: 2 };
    logger.info(fields, 'request');
    const accessLog = createAccessLog(logger);
    accessLog(fields.reqId, fields.method, fields.path, fields.status, fields.ms);
    accessLog('second', 'GET', '/', 200, 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, ACCESS_LOG_FLUSH_MS + 20));
    expect(lines).toHaveLength(3);
    expect(counter.writes).toBe(2);
    const [viaPino, direct] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(direct!)).toEqual(Object.keys(viaPino!));
    expect({ ...direct, time: 0 }).toEqual({ ...viaPino, time: 0 });
    expect(lines[1]!.replace(/"time":\d+/, '')).toBe(lines[0]!.replace(/"time":\d+/, ''));
  });

  it('writes at once when 16 KB of lines wait, and the rest when asked (as the process exits)', async () => {
    const { lines, stream, counter } = capture();
    const accessLog = createAccessLog(createLogger('info', stream));
    let written = 0;
    while (counter.writes === 0) accessLog(`request-${++written}`, 'GET', '/api/products', 200, 1);
    // Written in the call that filled the buffer, not later.
    expect(lines).toHaveLength(written);
    expect(lines.join('\n').length + written).toBeGreaterThanOrEqual(ACCESS_LOG_FLUSH_CHARS);
    accessLog('last', 'GET', '/', 200, 0);
    flushAccessLogs();
    expect(counter.writes).toBe(2);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ reqId: 'last' });
    await new Promise((resolve) => setTimeout(resolve, ACCESS_LOG_FLUSH_MS + 20));
    expect(counter.writes).toBe(2);
  });

  it('writes nothing when the level holds info back', async () => {
    const { lines, stream } = capture();
    const logger = createLogger('warn', stream);
    const accessLog = createAccessLog(logger);
    accessLog('id', 'GET', '/', 200, 0);
    logger.level = 'info';
    accessLog('id', 'GET', '/', 200, 0);
    await new Promise((resolve) => setTimeout(resolve, ACCESS_LOG_FLUSH_MS + 20));
    expect(lines).toHaveLength(1);
  });
});
