/**
 * The live-event vocabulary without zod, for the browser's first load (the hook that listens to
 * /api/events). schemas/events.ts re-exports it with the zod schemas the server uses.
 */

/**
 * Every event type the server may publish. It is the SSE `event:` field, and a browser
 * EventSource only hears the event names it listens for, so a type must be listed here to reach
 * the browser: the hub refuses to publish an unlisted type. Use `changed` when nothing more
 * specific fits (the browser refetches the topic's queries either way).
 */
export const LIVE_EVENT_TYPES = [
  'changed',
  // catalog, admin:products
  'product.created',
  'product.updated',
  'product.deleted',
  'stock.changed',
  // orders:<id>, admin:orders
  'order.created',
  'order.updated',
  'order.status_changed',
  'order.refunded',
  'payment.updated',
  // cart:<cartId>
  'cart.closed',
  // tickets:<id>, admin:messages
  'ticket.created',
  'ticket.updated',
  'ticket.replied',
  'message.created',
  'message.updated',
  // admin:audit
  'audit.logged',
  // admin:airdrops
  'airdrop.created',
  'airdrop.updated',
  'airdrop.started',
  'airdrop.completed',
  'airdrop.failed',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

const EVENT_TYPES = new Set<string>(LIVE_EVENT_TYPES);
export function isLiveEventType(type: string): type is LiveEventType {
  return EVENT_TYPES.has(type);
}

/** The JSON of an SSE `data:` line, checked by hand (no zod on the storefront's first load). */
export interface LiveEventData {
  topic: string;
  type: string;
  data?: unknown;
}

export function parseLiveEventData(value: unknown): LiveEventData | null {
  if (typeof value !== 'object' || value === null) return null;
  const { topic, type, data } = value as Record<string, unknown>;
  if (typeof topic !== 'string' || typeof type !== 'string') return null;
  return { topic, type, data };
}
