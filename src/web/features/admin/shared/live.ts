import type { QueryKey } from '@tanstack/react-query';
import { LIVE_EVENT_QUERY_KEYS } from '../../../lib/live-events';

/**
 * Makes an event on `topic` also invalidate `key` (e.g. the dashboard's figures when an order
 * changes). Called at module load of an area's key factory; idempotent.
 */
export function refreshOnTopic(topic: string, key: QueryKey): void {
  const keys = (LIVE_EVENT_QUERY_KEYS[topic] ??= []);
  const text = JSON.stringify(key);
  if (!keys.some((k) => JSON.stringify(k) === text)) keys.push(key);
}

/** `total` when known, else the rows seen so far: for counts in headings. */
export function pageCountLabel(page: { total: number | null; items: unknown[]; hasMore: boolean }): string {
  if (page.total !== null) return page.total.toLocaleString('en-US');
  return `${page.items.length}${page.hasMore ? '+' : ''}`;
}
