import { z } from 'zod';

/**
 * Live events: the topics a browser may subscribe to over SSE (`GET /api/events?topics=...`),
 * who may subscribe to them, and the event vocabulary. Shared by the server (hub, route) and the
 * browser (useLiveEvents).
 */

/** Anyone, signed in or not. */
export const PUBLIC_TOPICS = ['catalog'] as const;
/** A signed-in user; the server maps `<kind>:me` to `<kind>:<userId>`. */
export const USER_TOPICS = ['orders:me', 'tickets:me'] as const;
/** Role admin only. */
export const ADMIN_TOPICS = [
  'admin:orders',
  'admin:products',
  'admin:audit',
  'admin:messages',
  'admin:airdrops',
] as const;

/**
 * One browser cart's topic, `cart:<cartId>` (the random id the browser keeps for its cart): the
 * id is the capability, as a payment's reference is. `cart.closed` on it tells every tab holding
 * that cart that its checkout was paid, so the cart empties everywhere.
 */
export type CartTopic = `cart:${string}`;
const CART_TOPIC = /^cart:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function cartTopic(cartId: string): CartTopic {
  return `cart:${cartId}`;
}
export function isCartTopic(topic: string): topic is CartTopic {
  return CART_TOPIC.test(topic);
}

export type PublicTopic = (typeof PUBLIC_TOPICS)[number] | CartTopic;
export type UserTopic = (typeof USER_TOPICS)[number];
export type AdminTopic = (typeof ADMIN_TOPICS)[number];
/** A topic name as a browser asks for it. */
export type SubscribableTopic = PublicTopic | UserTopic | AdminTopic;
export type TopicAccess = 'public' | 'user' | 'admin';

export const USER_TOPIC_KINDS = ['orders', 'tickets'] as const;
export type UserTopicKind = (typeof USER_TOPIC_KINDS)[number];

/** At most this many topics in one subscription. */
export const MAX_TOPICS_PER_SUBSCRIPTION = 16;

const SUBSCRIBABLE = new Set<string>([...PUBLIC_TOPICS, ...USER_TOPICS, ...ADMIN_TOPICS]);

export function isSubscribableTopic(topic: string): topic is SubscribableTopic {
  return SUBSCRIBABLE.has(topic) || isCartTopic(topic);
}

export function topicAccess(topic: SubscribableTopic): TopicAccess {
  if ((ADMIN_TOPICS as readonly string[]).includes(topic)) return 'admin';
  if ((USER_TOPICS as readonly string[]).includes(topic)) return 'user';
  return 'public';
}

/** The concrete topic events of one user are published on: `orders:<userId>`, `tickets:<userId>`. */
export function userTopic(kind: UserTopicKind, userId: string): string {
  return `${kind}:${userId}`;
}

/**
 * The concrete topic a subscription listens on: `orders:me` -> `orders:<userId>`; other topics
 * are already concrete. A user topic without a user id is an error.
 */
export function resolveTopic(topic: SubscribableTopic, userId: string | undefined): string {
  if (topicAccess(topic) !== 'user') return topic;
  if (!userId) throw new Error(`topic ${topic} needs a signed-in user`);
  const kind = topic.slice(0, topic.indexOf(':')) as UserTopicKind;
  return userTopic(kind, userId);
}

const USER_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** Topics the server may publish on: the public and admin topics, and `orders:<id>` / `tickets:<id>`. */
export function isPublishableTopic(topic: string): boolean {
  if (isCartTopic(topic)) return true;
  if (SUBSCRIBABLE.has(topic)) return !(USER_TOPICS as readonly string[]).includes(topic);
  const colon = topic.indexOf(':');
  if (colon < 0) return false;
  const kind = topic.slice(0, colon);
  const id = topic.slice(colon + 1);
  return (USER_TOPIC_KINDS as readonly string[]).includes(kind) && id !== 'me' && USER_ID_PATTERN.test(id);
}

export type ParsedTopics = { ok: true; topics: SubscribableTopic[] } | { ok: false; message: string };

/** Parses `?topics=catalog,orders:me`: trimmed, de-duplicated, every name known. */
export function parseTopicList(raw: string | undefined): ParsedTopics {
  const names = [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) return { ok: false, message: 'At least one topic is required' };
  if (names.length > MAX_TOPICS_PER_SUBSCRIPTION) {
    return { ok: false, message: `At most ${MAX_TOPICS_PER_SUBSCRIPTION} topics per subscription` };
  }
  const unknown = names.filter((t) => !isSubscribableTopic(t));
  if (unknown.length > 0) {
    const shown = unknown.map((t) => (t.length > 64 ? `${t.slice(0, 64)}...` : t)).join(', ');
    return { ok: false, message: `Unknown topic${unknown.length > 1 ? 's' : ''}: ${shown}` };
  }
  return { ok: true, topics: names as SubscribableTopic[] };
}

export { LIVE_EVENT_TYPES, isLiveEventType, type LiveEventType } from '../live-event-types';

/** One event as it reaches a subscriber (server side) and the SSE `data:` line (browser side, without `id`). */
export const LiveEventSchema = z.object({
  topic: z.string().min(1),
  type: z.string().min(1),
  data: z.unknown().optional(),
  /** Unique per event; also the SSE `id:` field. */
  id: z.string().min(1),
});
export type LiveEvent = z.infer<typeof LiveEventSchema>;

/** The JSON of an SSE `data:` line. */
export const LiveEventMessageSchema = z.object({
  topic: z.string(),
  type: z.string(),
  data: z.unknown().optional(),
});
export type LiveEventMessage = z.infer<typeof LiveEventMessageSchema>;

/** Server hint for EventSource's own reconnect delay (ms). */
export const LIVE_EVENTS_RETRY_MS = 3000;
/** The server writes a comment line this often so proxies keep the stream open. */
export const LIVE_EVENTS_HEARTBEAT_MS = 25_000;
