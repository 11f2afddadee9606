import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import {
  LIVE_EVENTS_HEARTBEAT_MS,
  LIVE_EVENTS_RETRY_MS,
  parseTopicList,
  resolveTopic,
  topicAccess,
  type LiveEvent,
  type LiveEventMessage,
} from '../../../common/schemas/events';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { currentUser } from '../../lib/auth-guards';
import type { AppEnv } from '../../lib/hono-env';

/** A client this far behind is dropped; it reconnects and refetches. */
const MAX_PENDING_WRITES = 256;

/**
 * GET /api/events?topics=catalog,orders:me -> text/event-stream.
 * Each event: `event: <type>`, `id: <id>`, `data: {"topic","type","data"}`. A `retry:` hint first,
 * a comment line every 25 s as heartbeat. Authorization is checked on this request: user topics
 * need a session (401), admin topics the admin role (403).
 */
export function eventsRoutes(deps: AppDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.get('/', async (c) => {
    const parsed = parseTopicList(c.req.query('topics'));
    if (!parsed.ok) throw new AppError('VALIDATION_FAILED', parsed.message, { topics: parsed.message });

    const access = new Set(parsed.topics.map(topicAccess));
    const user = access.has('user') || access.has('admin') ? await currentUser(c) : null;
    if (!user && (access.has('user') || access.has('admin'))) {
      throw new AppError('UNAUTHENTICATED', 'Not authenticated');
    }
    if (access.has('admin') && user?.role !== 'admin') throw new AppError('FORBIDDEN', 'Not authorized');
    if (deps.events.isClosed) throw new AppError('UNAVAILABLE', 'Live events are not available');

    // Concrete topic (orders:<userId>) -> the name this client asked for (orders:me).
    const requestedName = new Map<string, string>();
    for (const topic of parsed.topics) requestedName.set(resolveTopic(topic, user?.id), topic);

    const signal = c.req.raw.signal;
    const response = streamSSE(c, async (stream) => {
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
      const send = (chunk: string) => {
        if (finished) return;
        if (pending >= MAX_PENDING_WRITES) {
          deps.logger.info({ topics: parsed.topics }, 'live events: dropping a client that is not reading');
          finish();
          return;
        }
        pending++;
        chain = chain
          .then(() => stream.write(chunk))
          .finally(() => {
            pending--;
          });
      };

      const unsubscribe = deps.events.subscribe(
        [...requestedName.keys()],
        (event) => {
          const chunk = formatEvent(event, requestedName.get(event.topic) ?? event.topic);
          if (chunk) send(chunk);
        },
        { onClose: finish },
      );
      stream.onAbort(finish);
      signal.addEventListener('abort', finish, { once: true });
      const heartbeat = setInterval(() => send(': heartbeat\n\n'), LIVE_EVENTS_HEARTBEAT_MS);
      heartbeat.unref();

      send(`retry: ${LIVE_EVENTS_RETRY_MS}\n: connected\n\n`);
      await done;

      clearInterval(heartbeat);
      unsubscribe();
      signal.removeEventListener('abort', finish);
      // streamSSE closes the stream when this callback returns.
    });
    response.headers.set('Cache-Control', 'no-cache, no-transform');
    response.headers.set('X-Accel-Buffering', 'no');
    return response;
  });

  return router;
}

/** One SSE event; null for an event whose type or id could break the framing. */
function formatEvent(event: LiveEvent, topic: string): string | null {
  if (/[\r\n]/.test(event.type) || /[\r\n]/.test(event.id)) return null;
  const message: LiveEventMessage = { topic, type: event.type, data: event.data };
  return `event: ${event.type}\nid: ${event.id}\ndata: ${JSON.stringify(message)}\n\n`;
}
