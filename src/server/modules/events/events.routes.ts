import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { currentUser } from '#server/lib/auth-guards';
import { clientKeysOf } from '#server/lib/client-ip';
import type { AppEnv } from '#server/lib/hono-env';
import type { LiveStreams } from './live-streams.service';

/**
 * GET /api/events?topics=catalog,orders:me -> text/event-stream.
 * Each event: `event: <type>`, `id: <id>`, `data: {"topic","type","data"}`. A `retry:` hint first,
 * a comment line every EVENTS_HEARTBEAT_SECONDS as heartbeat. Who may open which stream, how many,
 * and for how long is the live-streams service's (401, 403, 429, 503 with Retry-After).
 */
export function eventsRoutes(streams: LiveStreams): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/', async (c) => {
    const stream = await streams.admit({
      topics: c.req.query('topics'),
      currentUser: () => currentUser(c),
      client: clientKeysOf(c),
      headers: c.req.raw.headers,
      signal: c.req.raw.signal,
    });
    // streamSSE closes the stream when serve returns.
    const response = streamSSE(c, (sink) => stream.serve(sink));
    response.headers.set('Cache-Control', 'no-cache, no-transform');
    response.headers.set('X-Accel-Buffering', 'no');
    return response;
  });
}
