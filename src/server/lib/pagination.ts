import type { Page } from '#common/schemas/admin';

/** The rows a page query asks for: `limit` and `offset` from its 1-based page and page size. */
export function pageWindow(query: { page: number; pageSize: number }): { limit: number; offset: number } {
  return { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
}

/**
 * A page of a list. `total` null means uncounted (a free-text search that would cost more to count
 * than to read); then `hasMore` must come from the repository (it reads one row past the page).
 */
export function toPage<T>(
  items: T[],
  query: { page: number; pageSize: number },
  total: number | null,
  hasMore?: boolean,
): Page<T> {
  const { offset } = pageWindow(query);
  return {
    items,
    page: query.page,
    pageSize: query.pageSize,
    total,
    hasMore: hasMore ?? (total !== null && offset + items.length < total),
  };
}
