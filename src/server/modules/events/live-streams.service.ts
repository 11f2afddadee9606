import type { SessionUser } from '#common/schemas/auth';
import {
  LIVE_EVENTS_RETRY_MS,
  parseTopicList,
  resolveTopic,
  topicAccess,
  type LiveEvent,
  type LiveEventMessage,
} from '#common/schemas/events';
import { AppError, BusyError, RateLimitedError } from '#server/lib/app-error';
import type { ClientKeys } from '#server/lib/client-ip';
import { hasWiderNetwork } from '#server/lib/client-limits';
import type { OpenStreams } from './open-streams';
import type { Config } from '#server/config';
import type { Lifecycle } from '#server/lib/lifecycle';
import type { Logger } from '#server/lib/logger';
import type { AuthService } from '#server/modules/auth/auth.service';
import type { EventHub } from './event-hub';

/** What the live streams use of the app's services (deps.ts builds them). */
export interface LiveStreamsDeps {
  auth: AuthService;
  config: Config;
  events: EventHub;
  lifecycle: Lifecycle;
  logger: Logger;
}

/** A private stream's session is looked up again before an event when this much time has passed. */
const SESSION_CHECK_MS = 1000;

/** A client this far behind is dropped; it reconnects and refetches. */
const MAX_PENDING_WRITES = 256;

/** One server-sent event, as Hono's writeSSE takes it. */
export interface SseFrame {
  data: string;
  event?: string;
  id?: string;
  retry?: number;
}

/** Where a stream's frames go (Hono's SSE stream in the route). */
export interface StreamSink {
  write(text: string): Promise<unknown>;
  writeSSE(message: SseFrame): Promise<unknown>;
  onAbort(listener: () => void): void;
}

/** What asks for a stream: its `topics` query, who is signed in, from where. */
export interface StreamRequest {
  topics: string | undefined;
  currentUser: () => Promise<SessionUser | null>;
  client: ClientKeys | undefined;
  /** The request's headers: a private stream's session is looked up again with them. */
  headers: Headers;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** An admitted stream: counted until `serve` ends. */
export interface AdmittedStream {
  /** Sends the stream's events to `sink` until it ends (client gone, session ended, life over, drain). */
  serve(sink: StreamSink): Promise<void>;
}

/**
 * The rules of live-event streams (GET /api/events): who may have which topics, how many streams an
 * instance, a client and an admin may hold, and how long one lives.
 *
 * Authorization is checked when a stream opens: user topics need a session (401), admin topics the
 * admin role (403); and again at every heartbeat and before an event at most once a second: a
 * stream whose session ended (or lost the admin role) is closed.
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
export function createLiveStreams(deps: LiveStreamsDeps, open: OpenStreams) {
  const limits = deps.config.events;
  /** Open streams per client key, network key (`network:`) and admin (`admin:`). */
  const streamsPer = new Map<string, number>();

  /** Takes a place for one stream in its pool and under each of its keys; refuses one over a limit. */
  function reserve(pool: 'public' | 'admin', user: SessionUser | null, client: ClientKeys | undefined) {
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
      throw new BusyError(10, 'Too many live connections; try again shortly');
    }
    open[pool]++;
    for (const { key } of counted) streamsPer.set(key, (streamsPer.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open[pool]--;
      for (const { key } of counted) {
        const left = (streamsPer.get(key) ?? 1) - 1;
        if (left > 0) streamsPer.set(key, left);
        else streamsPer.delete(key);
      }
    };
  }

  /** Authorizes and counts one stream, or throws the AppError that answers the request. */
  async function admit(request: StreamRequest): Promise<AdmittedStream> {
    const parsed = parseTopicList(request.topics);
    if (!parsed.ok) throw new AppError('VALIDATION_FAILED', parsed.message, { topics: parsed.message });

    const access = new Set(parsed.topics.map(topicAccess));
    const isPrivate = access.has('user') || access.has('admin');
    const user = isPrivate ? await request.currentUser() : null;
    if (!user && isPrivate) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
    if (access.has('admin') && user?.role !== 'admin') throw new AppError('FORBIDDEN', 'Not authorized');
    if (deps.events.isClosed || deps.lifecycle.isDraining)
      throw new AppError('UNAVAILABLE', 'Live events are not available');

    const release = reserve(access.has('admin') && user ? 'admin' : 'public', user, request.client);
    /** The session is still the one the stream was opened with, with the rights its topics need. */
    const sessionStillValid = async () => {
      const now = await deps.auth.getSessionUser(request.headers).catch(() => null);
      return now !== null && now.id === user?.id && (!access.has('admin') || now.role === 'admin');
    };
    // Concrete topic (orders:<userId>) -> the name this client asked for (orders:me).
    const requestedName = new Map<string, string>();
    for (const topic of parsed.topics) requestedName.set(resolveTopic(topic, user?.id), topic);

    return {
      async serve(sink) {
        try {
          await serveStream(sink, {
            topics: parsed.topics,
            requestedName,
            isPrivate,
            sessionStillValid,
            signal: request.signal,
          });
        } finally {
          release();
        }
      },
    };
  }

  async function serveStream(
    sink: StreamSink,
    stream: {
      topics: string[];
      requestedName: Map<string, string>;
      isPrivate: boolean;
      sessionStillValid: () => Promise<boolean>;
      signal: AbortSignal;
    },
  ) {
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

    // The session behind a private stream, checked at most once a second before an event goes out.
    let checkedAt = 0;
    const stillAllowed = async () => {
      if (!stream.isPrivate) return true;
      if (Date.now() - checkedAt < SESSION_CHECK_MS) return true;
      const valid = await stream.sessionStillValid();
      if (valid) checkedAt = Date.now();
      return valid;
    };

    /**
     * Frames go out in order; `guarded` ones (events) only while the session still allows them; a
     * client that stops reading is dropped instead of buffered forever.
     */
    const send = (frame: SseFrame | { comment: string }, guarded = false) => {
      if (finished) return;
      if (pending >= MAX_PENDING_WRITES) {
        deps.logger.info({ topics: stream.topics }, 'live events: dropping a client that is not reading');
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
          if ('comment' in frame) await sink.write(`: ${frame.comment}\n\n`);
          else await sink.writeSSE(frame);
        })
        .finally(() => {
          pending--;
        });
    };

    const unsubscribe = deps.events.subscribe(
      [...stream.requestedName.keys()],
      (event) => {
        const frame = eventFrame(event, stream.requestedName.get(event.topic) ?? event.topic);
        if (frame) send(frame, true);
      },
      { onClose: finish },
    );
    sink.onAbort(finish);
    stream.signal.addEventListener('abort', finish, { once: true });
    const offDrain = deps.lifecycle.onDrain(finish);
    const heartbeat = setInterval(() => {
      if (!stream.isPrivate) {
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
    stream.signal.removeEventListener('abort', finish);
  }

  return { admit };
}

export type LiveStreams = ReturnType<typeof createLiveStreams>;

/** One SSE event; null for an event whose type or id could break the framing. */
function eventFrame(event: LiveEvent, topic: string): SseFrame | null {
  if (/[\r\n]/.test(event.type) || /[\r\n]/.test(event.id)) return null;
  const message: LiveEventMessage = { topic, type: event.type, data: event.data };
  return { event: event.type, id: event.id, data: JSON.stringify(message) };
}
