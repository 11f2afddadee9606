import type { QueryClient } from '@tanstack/react-query';

/**
 * What a page module may export as `handle.prefetch`: the queries its first screen shows. The
 * server renderer (entry-server.tsx) runs them before rendering, so the HTML carries their data
 * and the browser hydrates from the same cache instead of fetching it again.
 */
export interface PageHandle {
  prefetch?: (
    queryClient: QueryClient,
    args: { params: Record<string, string | undefined>; url: URL },
  ) => Promise<unknown>;
  /**
   * The code its first screen shows besides the page's own module: a lazily loaded part the server
   * renders whole (the product modal of a product URL). The server awaits it before rendering, and
   * the browser before hydrating, so the browser adopts the server's HTML of that part instead of
   * suspending on it and drawing it again.
   */
  preload?: (args: { params: Record<string, string | undefined> }) => Promise<unknown>;
  /**
   * Where the server sends the visitor instead, given the URL and what the prefetches loaded (the
   * page itself would render a <Navigate>, which a server cannot follow: the visitor would see an
   * empty page, then the next one drawn over it).
   */
  redirect?: (queryClient: QueryClient, args: { url: URL }) => string | undefined;
}

export function pageHandle(handle: unknown): PageHandle | undefined {
  return typeof handle === 'object' && handle !== null ? handle : undefined;
}
