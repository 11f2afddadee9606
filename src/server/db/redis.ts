import { createClient } from 'redis';
import type { Logger } from '../lib/logger';
import type { NotificationHandler } from './client';

/**
 * Optional Redis (REDIS_URL) for the state instances share that need not be durable: rate-limit
 * counters (fixed windows, the same rules as rate_limit_counters) and the live-event fan-out (pub/sub
 * instead of LISTEN/NOTIFY). Same interfaces as the PostgreSQL ones, so the callers do not know
 * which one runs. Everything durable (orders, leases, the mail queue) stays in PostgreSQL.
 */

type RedisClient = ReturnType<typeof createClient>;

/** Redis lets a message be 512 MB; live events are hints, so bound them well below. */
export const REDIS_MAX_EVENT_PAYLOAD_BYTES = 1024 * 1024;

/**
 * One step of a fixed window, atomically (one Lua script): a window that has ended starts again at
 * 1 with `now` as its start; otherwise the count goes up by one. The key expires with its window.
 * Returns { count, window start (epoch ms) }: the same answer as counters.ts's hitFixedWindow.
 */
const HIT_FIXED_WINDOW = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local start = tonumber(redis.call('HGET', KEYS[1], 's'))
if start == nil or start <= now - window then
  redis.call('HSET', KEYS[1], 'c', 1, 's', now)
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, now}
end
return {redis.call('HINCRBY', KEYS[1], 'c', 1), start}
`;

export interface FixedWindowCounters {
  hitFixedWindow(
    key: string,
    windowMs: number,
    nowMs: number,
  ): Promise<{ count: number; windowStartMs: number }>;
  deleteCountersBefore(beforeMs: number): Promise<number>;
}

export interface EventTransport {
  listen(channel: string, handler: NotificationHandler, onGap?: () => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  readonly maxPayloadBytes: number;
}

export interface RedisState {
  /** Rate-limit counters (db/rate-limiter.ts takes them instead of rate_limit_counters). */
  counters: FixedWindowCounters;
  /** Live-event transport (the event hub takes it instead of LISTEN/NOTIFY). */
  events: EventTransport;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenRedisOptions {
  url: string;
  /** Prefix of every key and channel (REDIS_PREFIX). */
  prefix: string;
  logger: Logger;
  connectTimeoutMs?: number;
}

/**
 * Connects two clients: one for commands (counters, PUBLISH) and one in subscriber mode (a Redis
 * connection that subscribes can do nothing else). Both reconnect by themselves; a subscriber that
 * comes back resubscribes and calls every onGap, as the LISTEN connection does.
 */
export async function openRedis(options: OpenRedisOptions): Promise<RedisState> {
  const { logger, prefix } = options;
  const socket = {
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    reconnectStrategy: (retries: number) => Math.min(2_000, 250 * 2 ** retries),
  };
  // Named, so that an operator (or a test) can tell them apart in CLIENT LIST.
  // Commands fail at once while disconnected (a request answers 503, as for a lost PostgreSQL)
  // instead of waiting in an offline queue for as long as the outage lasts.
  const commands: RedisClient = createClient({
    url: options.url,
    socket,
    name: `${prefix}commands`,
    disableOfflineQueue: true,
  });
  const subscriber: RedisClient = createClient({ url: options.url, socket, name: `${prefix}events` });
  let closed = false;
  let lost = false;
  commands.on('error', (err: unknown) => {
    if (!closed) logger.warn({ err }, 'redis connection error');
  });
  subscriber.on('error', (err: unknown) => {
    if (closed) return;
    if (!lost) logger.warn({ err }, 'redis subscriber connection lost; reconnecting');
    lost = true;
  });
  const gapHandlers = new Set<() => void>();
  subscriber.on('ready', () => {
    if (!lost || closed) return;
    lost = false;
    logger.info('redis subscriber restored; telling listeners that events may have been missed');
    for (const onGap of [...gapHandlers]) {
      try {
        onGap();
      } catch (err) {
        logger.warn({ err }, 'redis gap handler failed');
      }
    }
  });
  subscriber.on('end', () => {
    if (!closed) lost = true;
  });
  await Promise.all([commands.connect(), subscriber.connect()]);

  let scriptSha: string | undefined;
  const hit = async (key: string, windowMs: number, nowMs: number): Promise<unknown> => {
    if (!commands.isReady) throw unavailable();
    const args = { keys: [key], arguments: [String(nowMs), String(windowMs)] };
    if (scriptSha) {
      try {
        return await commands.evalSha(scriptSha, args);
      } catch (err) {
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      }
    }
    scriptSha = await commands.scriptLoad(HIT_FIXED_WINDOW);
    return commands.evalSha(scriptSha, args);
  };

  return {
    counters: {
      async hitFixedWindow(key, windowMs, nowMs) {
        const reply = await hit(`${prefix}rl:${key}`, windowMs, nowMs);
        if (!Array.isArray(reply) || reply.length !== 2)
          throw new Error('redis rate limit script: bad reply');
        return { count: Number(reply[0]), windowStartMs: Number(reply[1]) };
      },
      // Keys expire with their window (PEXPIRE): nothing to sweep.
      async deleteCountersBefore() {
        return 0;
      },
    },
    events: {
      maxPayloadBytes: REDIS_MAX_EVENT_PAYLOAD_BYTES,
      async listen(channel, handler, onGap) {
        const name = `${prefix}${channel}`;
        const listener = (message: string) => handler(message);
        await subscriber.subscribe(name, listener);
        if (onGap) gapHandlers.add(onGap);
        let stopped = false;
        return async () => {
          if (stopped) return;
          stopped = true;
          if (onGap) gapHandlers.delete(onGap);
          if (subscriber.isOpen) await subscriber.unsubscribe(name, listener).catch(() => undefined);
        };
      },
      async notify(channel, payload) {
        if (!commands.isReady) throw unavailable();
        await commands.publish(`${prefix}${channel}`, payload);
      },
    },
    async ping() {
      return (await commands.ping()) === 'PONG';
    },
    async close() {
      if (closed) return;
      closed = true;
      gapHandlers.clear();
      await Promise.allSettled([commands.close(), subscriber.close()]);
    },
  };
}

/** What a command meets while Redis is away: a network code, so the request answers 503 (db/errors.ts). */
function unavailable(): Error {
  return Object.assign(new Error('Redis is not connected'), { code: 'ECONNREFUSED' });
}
