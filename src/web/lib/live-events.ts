import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { LIVE_EVENT_TYPES, parseLiveEventData, type LiveEventData } from '#common/live-event-types';

/** The endpoint of the server's SSE stream. */
export const LIVE_EVENTS_URL = '/api/events';

/**
 * Topic -> query-key prefixes that an event on it invalidates. Each feature passes its own keys
 * (from its key factory) to useLiveEvents; nothing here knows a feature's keys. A topic is looked
 * up whole first (`admin:orders`), then by its part before the first colon (`orders:me` ->
 * `orders`).
 */
export type LiveEventKeys = Readonly<Record<string, readonly QueryKey[]>>;

/** The query-key prefixes an event on `topic` invalidates. */
export function queryKeysForTopic(keys: LiveEventKeys, topic: string): readonly QueryKey[] {
  const exact = keys[topic];
  if (exact) return exact;
  const colon = topic.indexOf(':');
  return colon > 0 ? (keys[topic.slice(0, colon)] ?? []) : [];
}

export const RECONNECT_MIN_DELAY_MS = 1000;
export const RECONNECT_MAX_DELAY_MS = 30_000;

/** Delay before reconnect attempt `attempt` (0-based): 1 s, 2 s, 4 s, ... capped at 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_MIN_DELAY_MS * 2 ** Math.max(0, attempt));
}

export type LiveEventsStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface UseLiveEventsOptions {
  /** Called for every event, after its queries were invalidated. */
  onEvent?: (event: LiveEventData) => void;
  /** Off: no connection (e.g. until the session is known). Default true. */
  enabled?: boolean;
}

/**
 * Subscribes to the topics of `keys` for as long as the component is mounted and invalidates, for
 * each event, the query keys its topic maps to. On an error the
 * stream is closed and reopened after 1 s, 2 s, 4 s, ... up to 30 s; the delay resets once a
 * stream opens. After a reconnect every query of the topics is invalidated, since events may
 * have been missed while disconnected.
 */
export function useLiveEvents(
  keys: LiveEventKeys,
  options: UseLiveEventsOptions = {},
): { status: LiveEventsStatus } {
  const queryClient = useQueryClient();
  const onEventRef = useRef(options.onEvent);
  const keysRef = useRef(keys);
  useEffect(() => {
    onEventRef.current = options.onEvent;
    keysRef.current = keys;
  });
  const topics = Object.keys(keys);
  const enabled = options.enabled ?? true;
  const topicKey = [...new Set(topics.map((t) => t.trim()).filter(Boolean))].sort().join(',');
  const [status, setStatus] = useState<LiveEventsStatus>('connecting');
  const isActive = enabled && topicKey !== '' && typeof EventSource !== 'undefined';

  useEffect(() => {
    if (!isActive) return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let hasOpened = false;
    let disposed = false;

    const onMessage = (message: MessageEvent) => {
      const event = parseMessage(message.data);
      if (!event) return;
      invalidateTopic(queryClient, keysRef.current, event.topic);
      onEventRef.current?.(event);
    };

    const connect = () => {
      const es = new EventSource(`${LIVE_EVENTS_URL}?topics=${encodeURIComponent(topicKey)}`, {
        withCredentials: true,
      });
      source = es;
      es.onopen = () => {
        attempt = 0;
        setStatus('open');
        if (hasOpened)
          for (const topic of topicKey.split(',')) invalidateTopic(queryClient, keysRef.current, topic);
        hasOpened = true;
      };
      es.onerror = () => {
        // Take over from EventSource's own retry so the delay backs off.
        es.close();
        if (disposed || source !== es) return;
        source = undefined;
        setStatus('reconnecting');
        timer = setTimeout(connect, reconnectDelay(attempt++));
      };
      es.onmessage = onMessage;
      for (const type of LIVE_EVENT_TYPES) es.addEventListener(type, onMessage);
    };

    connect();
    return () => {
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      source?.close();
      source = undefined;
      setStatus('connecting');
    };
  }, [isActive, topicKey, queryClient]);

  return { status: isActive ? status : 'idle' };
}

function invalidateTopic(queryClient: QueryClient, keys: LiveEventKeys, topic: string): void {
  for (const queryKey of queryKeysForTopic(keys, topic)) void queryClient.invalidateQueries({ queryKey });
}

function parseMessage(raw: unknown): LiveEventData | null {
  if (typeof raw !== 'string') return null;
  try {
    return parseLiveEventData(JSON.parse(raw));
  } catch {
    return null;
  }
}
