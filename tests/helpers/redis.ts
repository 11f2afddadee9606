import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

/** The Redis the Redis runs of shared-state tests use: REDIS_URL, else the usual local one. */
export const REDIS_TEST_URL = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

/** Whether something answers on REDIS_TEST_URL's port (within 1 s). */
export async function isRedisReachable(url = REDIS_TEST_URL): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

let warned = false;
export function warnIfRedisSkipped(reachable: boolean): void {
  if (!reachable && !warned) {
    warned = true;
    console.warn(
      `SKIPPED: Redis runs of shared-state tests (no Redis answers at ${REDIS_TEST_URL}; set REDIS_URL)`,
    );
  }
}

/** A REDIS_PREFIX of its own, so tests (and benches) sharing one Redis never see each other's keys. */
export function uniqueRedisPrefix(): string {
  return `test-${randomBytes(6).toString('hex')}:`;
}
