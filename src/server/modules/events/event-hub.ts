import { randomBytes } from 'node:crypto';
import { isLiveEventType, isPublishableTopic, LiveEventSchema, type LiveEvent } from '#common/schemas/events';
import type { Database } from '#server/db/client';
import type { EventTransport } from '#server/db/redis';
import type { Logger } from '#server/lib/logger';

/** The one PostgreSQL channel every instance LISTENs on. */
export const EVENTS_CHANNEL = 'shop_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; keep a margin. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7900;

export type LiveEventListener = (event: LiveEvent) => void;

export interface SubscribeOptions {
  /** Called once when the hub closes while this subscription is still open (server shutdown). */
  onClose?: () => void;
  /**
   * Called when events may have been missed (the PostgreSQL LISTEN connection was lost and came
   * back). Without it the subscription is ended instead (onClose runs): an SSE stream closes, the
   * browser reconnects and refetches everything its topics cover.
   */
  onGap?: () => void;
}

/**
 * Live events across instances: publish sends one NOTIFY on `shop_events`; every instance
 * LISTENs and hands each event to its local subscribers of that topic (its own publishes
 * included, through the same NOTIFY, so delivery is the same whichever instance published).
 */
export interface EventHub {
  /**
   * Publish on a concrete topic (`catalog`, `orders:<userId>`, `admin:orders`, ...). The topic and
   * type must be known (src/common/schemas/events.ts): an unknown one is a programming error and
   * throws. A delivery failure (database down) is logged, not thrown: events are hints, browsers
   * refetch, and a committed write must not turn into an error because of them.
   */
  publish(topic: string, event: { type: string; data?: unknown }): Promise<void>;
  /** Listen on concrete topics; returns the unsubscribe function (idempotent). */
  subscribe(topics: string[], listener: LiveEventListener, options?: SubscribeOptions): () => void;
  /** Number of open subscriptions on this instance (health, tests). */
  readonly subscriberCount: number;
  readonly isClosed: boolean;
  /** Stops listening and ends every open subscription (their onClose runs). Idempotent. */
  close(): Promise<void>;
}

interface Subscription {
  topics: string[];
  listener: LiveEventListener;
  onClose: (() => void) | undefined;
  onGap: (() => void) | undefined;
}

export async function createEventHub({
  database,
  logger,
  transport,
}: {
  database: Database;
  logger: Logger;
  /** Where events travel instead of the database's LISTEN/NOTIFY: Redis pub/sub (REDIS_URL). */
  transport?: EventTransport | undefined;
}): Promise<EventHub> {
  const channel = transport ?? database;
  const maxPayloadBytes = transport?.maxPayloadBytes ?? MAX_NOTIFY_PAYLOAD_BYTES;
  const byTopic = new Map<string, Set<Subscription>>();
  const all = new Set<Subscription>();
  let closed = false;
  let closing: Promise<void> | undefined;

  const deliver = (event: LiveEvent) => {
    const subs = byTopic.get(event.topic);
    if (!subs) return;
    for (const sub of [...subs]) {
      try {
        sub.listener(event);
      } catch (err) {
        logger.warn({ err, topic: event.topic }, 'live event listener failed');
      }
    }
  };

  const onNotification = (payload: string) => {
    if (closed) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      logger.warn({ bytes: payload.length }, 'ignoring malformed live event payload');
      return;
    }
    const result = LiveEventSchema.safeParse(parsed);
    if (!result.success) {
      logger.warn('ignoring live event with an unexpected shape');
      return;
    }
    deliver(result.data);
  };

  const removeSubscription = (sub: Subscription) => {
    if (!all.delete(sub)) return false;
    for (const topic of sub.topics) {
      const set = byTopic.get(topic);
      set?.delete(sub);
      if (set && set.size === 0) byTopic.delete(topic);
    }
    return true;
  };

  const endSubscription = (sub: Subscription) => {
    removeSubscription(sub);
    try {
      sub.onClose?.();
    } catch (err) {
      logger.warn({ err }, 'live event subscription close failed');
    }
  };

  const onGap = () => {
    if (closed) return;
    logger.warn({ subscriptions: all.size }, 'live events may have been missed; resynchronising subscribers');
    for (const sub of [...all]) {
      if (!sub.onGap) {
        endSubscription(sub);
        continue;
      }
      try {
        sub.onGap();
      } catch (err) {
        logger.warn({ err }, 'live event gap handler failed');
      }
    }
  };

  const unlisten = await channel.listen(EVENTS_CHANNEL, onNotification, onGap);

  return {
    get subscriberCount() {
      return all.size;
    },
    get isClosed() {
      return closed;
    },

    async publish(topic, event) {
      if (!isPublishableTopic(topic)) throw new Error(`live events: cannot publish on topic "${topic}"`);
      if (!isLiveEventType(event.type)) {
        throw new Error(
          `live events: unknown event type "${event.type}" (add it to LIVE_EVENT_TYPES in src/common/schemas/events.ts)`,
        );
      }
      if (closed) {
        logger.debug({ topic, type: event.type }, 'live event dropped: hub closed');
        return;
      }
      const id = newEventId();
      let payload = JSON.stringify({ topic, type: event.type, data: event.data, id }, bigintAsString);
      if (Buffer.byteLength(payload, 'utf8') > maxPayloadBytes) {
        // Too large for the transport (NOTIFY: 8000 bytes): send the notice without data; clients refetch anyway.
        payload = JSON.stringify({ topic, type: event.type, id });
      }
      try {
        await channel.notify(EVENTS_CHANNEL, payload);
      } catch (err) {
        logger.warn({ err, topic, type: event.type }, 'live event not delivered');
      }
    },

    subscribe(topics, listener, options = {}) {
      const sub: Subscription = {
        topics: [...new Set(topics)],
        listener,
        onClose: options.onClose,
        onGap: options.onGap,
      };
      if (closed) {
        queueMicrotask(() => sub.onClose?.());
        return () => undefined;
      }
      all.add(sub);
      for (const topic of sub.topics) {
        let set = byTopic.get(topic);
        if (!set) {
          set = new Set();
          byTopic.set(topic, set);
        }
        set.add(sub);
      }
      return () => {
        removeSubscription(sub);
      };
    },

    close() {
      closing ??= (async () => {
        closed = true;
        for (const sub of [...all]) endSubscription(sub);
        try {
          await unlisten();
        } catch (err) {
          logger.warn({ err }, 'live events: UNLISTEN failed');
        }
      })();
      return closing;
    },
  };
}

/** Crypto amounts are bigint base units: they travel as decimal strings. */
function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** Time-ordered and unique across instances: `<ms base36>-<random hex>`. */
function newEventId(): string {
  return `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
}
