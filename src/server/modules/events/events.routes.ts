import { Hono } from 'hono';
import { streamSSE, type SSEMessage } from 'hono/streaming';
import {
  LIVE_EVENTS_RETRY_MS,
  parseTopicList,
  resolveTopic,
  topicAccess,
  type LiveEvent,
  type LiveEventMessage,
} from '#common/schemas/events';
import type { AppDeps } from '#server/deps';
import { AppError, RateLimitedError } from '#server/lib/app-error';
import { currentUser } from '#server/lib/auth-guards';
import { clientKeysOf } from '#server/lib/client-ip';
import { hasWiderNetwork } from '#server/lib/client-limits';
import type { AppEnv } from '#server/lib/hono-env';
import type { OpenStreams } from './open-streams';

/** A private stream's session is looked up again before an event when this much time has passed. */
const SESSION_CHECK_MS = 1000;

/** A client this far behind is dropped; it reconnects and refetches. */
const MAX_PENDING_WRITES = 256;

/**
 * GET /api/events?topics=catalog,orders:me -> text/event-stream.
 * Each event: `event: <type>`, `id: <id>`, `data: {"topic","type","data"}`. A `retry:` hint first,
 * a comment line every EVENTS_HEARTBEAT_SECONDS as heartbeat. Authorization is checked on this
 * request: user topics need a session (401), admin topics the admin role (403), and again at every
 * heartbeat: a stream whose session ended (or lost the admin role) is closed.
 *
 * Bounded: at most EVENTS_MAX_STREAMS open public streams per process (503 above) and
 * EVENTS_MAX_STREAMS_PER_CLIENT per client (429 above): an IPv4 address, an IPv6 /64, with an IPv6
 * /56 allowed IPV6_NETWORK_LIMIT_MULTIPLIER times that (requests without a socket, the server's
 * own tests, share one bucket). Streams of admin topics have a reserve of their own,
 * EVENTS_MAX_ADMIN_STREAMS, counted per admin rather than per address, so visitors filling the
 * public streams never shut an admin out. Each lives at most EVENTS_MAX_STREAM_SECONDS; the
 * browser reconnects and resynchronises when a stream ends. When the instance starts shutting
 * down (deps.lifecycle) its streams end and new ones are refused (503), so that the browsers
 * reconnect to another instance and no stream holds the shutdown open.
 *
 * `open` counts the streams open now: public ones and those of admin topics (the admins'
 * reserve); the app's metrics read it.
 */
export function eventsRoutes(deps: AppDeps, open: OpenStreams = { public: 0, admin: 0 }): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const limits = deps.config.events;
  /** Open streams per client key, network key (`network:`) and admin (`admin:`). */
  const streamsPer = new Map<string, number>();

  router.get('/', async (c) => {
    const parsed = parseTopicList(c.req.query('topics'));
    if (!parsed.ok) throw new AppError('VALIDATION_FAILED', parsed.message, { topics: parsed.message });

    const access = new Set(parsed.topics.map(topicAccess));
    const user = access.has('user') || access.has('admin') ? await currentUser(c) : null;
    if (!user && (access.has('user') || access.has('admin'))) {
      throw new AppError('UNAUTHENTICATED', 'Not authenticated');
    }
    if (access.has('admin') && user?.role !== 'admin') throw new AppError('FORBIDDEN', 'Not authorized');
    if (deps.events.isClosed || deps.lifecycle.isDraining)
      throw new AppError('UNAVAILABLE', 'Live events are not available');

    const topicList = parsed.topics;
    const pool = access.has('admin') && user ? 'admin' : 'public';
    const client = clientKeysOf(c);
    const counted: Array<{ key: string; max: number }> =
      pool === 'admin'
        ? [{ key: `admin:${user?.id}`, max: limits.maxStreamsPerClient }]
        : [
            { key: `client:${client?.key ?? 'no-socket'}`, max: limits.maxStreamsPerClient },
            ...(client && hasWiderNetwork(client)
              ? [
                  {
                    key: `network:${client.network}`,
                    max: limits.maxStreamsPerClient * deps.config.networkLimitMultiplier,
                  },
                ]
              : []),
          ];
    if (counted.some(({ key, max }) => (streamsPer.get(key) ?? 0) >= max)) {
      throw new RateLimitedError(5, 'Too many live connections from this address');
    }
    if (open[pool] >= (pool === 'admin' ? limits.maxAdminStreams : limits.maxStreams)) {
      c.header('Retry-After', '10');
      throw new AppError('UNAVAILABLE', 'Too many live connections; try again shortly');
    }
    open[pool]++;
    for (const { key } of counted) streamsPer.set(key, (streamsPer.get(key) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      open[pool]--;
      for (const { key } of counted) {
        const left = (streamsPer.get(key) ?? 1) - 1;
        if (left > 0) streamsPer.set(key, left);
        else streamsPer.delete(key);
      }
    };
    const isPrivate = access.has('user') || access.has('admin');
    const sessionHeaders = c.req.raw.headers;
    /** The session is still the one the stream was opened with, with the rights its topics need. */
    const sessionStillValid = async () => {
      const now = await deps.auth.getSessionUser(sessionHeaders).catch(() => null);
      return now !== null && now.id === user?.id && (!access.has('admin') || now.role === 'admin');
    };

    // Concrete topic (orders:<userId>) -> the name this client asked for (orders:me).
    const requestedName = new Map<string, string>();
    for (const topic of parsed.topics) requestedName.set(resolveTopic(topic, user?.id), topic);

    const signal = c.req.raw.signal;
    const response = streamSSE(c, async (stream) => {
      try {
        await serve(stream);
      } finally {
        release();
      }
    });
    async function serve(stream: Parameters<Parameters<typeof streamSSE>[1]>[0]) {
      let finished = false;
      let pending = 0;
      let chain: Promise<unknown> = Promise.resolve();
      let resolveDone: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        resolveDone = resolve;
      });
      const finish = () => {
        if (finished) return;
        finished = true;
        resolveDone();
      };

      // Writes go out in order; a client that stops reading is dropped instead of buffered forever.
      // The session behind a private stream, checked at most once a second before an event goes out.
      let checkedAt = 0;
      const stillAllowed = async () => {
        if (!isPrivate) return true;
        if (Date.now() - checkedAt < SESSION_CHECK_MS) return true;
        const valid = await sessionStillValid();
        if (valid) checkedAt = Date.now();
        return valid;
      };

      /** Frames go out in order; `guarded` ones (events) only while the session still allows them. */
      const send = (frame: SSEMessage | { comment: string }, guarded = false) => {
        if (finished) return;
        if (pending >= MAX_PENDING_WRITES) {
          deps.logger.info({ topics: topicList }, 'live events: dropping a client that is not reading');
          finish();
          return;
        }
        pending++;
        chain = chain
          .then(async () => {
            if (finished) return;
            if (guarded && !(await stillAllowed())) {
              finish();
              return;
            }
            // writeSSE has no comment lines; a heartbeat is one, so EventSource ignores it.
            if ('comment' in frame) await stream.write(`: ${frame.comment}\n\n`);
            else await stream.writeSSE(frame);
          })
          .finally(() => {
            pending--;
          });
      };

      const unsubscribe = deps.events.subscribe(
        [...requestedName.keys()],
        (event) => {
          const frame = eventFrame(event, requestedName.get(event.topic) ?? event.topic);
          if (frame) send(frame, true);
        },
        { onClose: finish },
      );
      stream.onAbort(finish);
      signal.addEventListener('abort', finish, { once: true });
      const offDrain = deps.lifecycle.onDrain(finish);
      const heartbeat = setInterval(() => {
        if (!isPrivate) {
          send({ comment: 'heartbeat' });
          return;
        }
        checkedAt = 0;
        send({ comment: 'heartbeat' }, true);
      }, limits.heartbeatMs);
      heartbeat.unref();
      // A stream ends after its maximum life; the browser reconnects (and its session is checked anew).
      const lifetime = setTimeout(() => {
        // An empty data field sets the retry delay without dispatching an event.
        send({ data: '', retry: LIVE_EVENTS_RETRY_MS });
        void chain.then(finish, finish);
      }, limits.maxStreamMs);
      lifetime.unref();

      send({ data: '', retry: LIVE_EVENTS_RETRY_MS });
      await done;

      clearInterval(heartbeat);
      clearTimeout(lifetime);
      unsubscribe();
      offDrain();
      signal.removeEventListener('abort', finish);
      // streamSSE closes the stream when this callback returns.
    }
    response.headers.set('Cache-Control', 'no-cache, no-transform');
    response.headers.set('X-Accel-Buffering', 'no');
    return response;
  });

  return router;
}

/** One SSE event; null for an event whose type or id could break the framing. */
function eventFrame(event: LiveEvent, topic: string): SSEMessage | null {
  if (/[\r\n]/.test(event.type) || /[\r\n]/.test(event.id)) return null;
  const message: LiveEventMessage = { topic, type: event.type, data: event.data };
  return { event: event.type, id: event.id, data: JSON.stringify(message) };
}
