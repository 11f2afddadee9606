import { dehydrate, HydrationBoundary, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useMatches, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import { createQueryClient } from '#web/lib/query-client';

/**
 * How a page's data reaches its first HTML: a route's server `loader` runs the page's TanStack
 * queries (answered in process by the API, src/server/modules/pages) and returns them dehydrated;
 * the root component hydrates every matched route's queries into the browser's cache
 * (LoaderQueries), so the page renders from the same cache on the server and in the browser,
 * and live updates keep it fresh. On a navigation inside the app, `clientLoader` (clientData)
 * leaves the fetching to the page's own queries: the page shows at once, from the cache or with
 * its loading state, instead of waiting for a server round trip.
 */
export interface QueriesData {
  queries?: DehydratedState;
}

/** What a page's queries may take on the server before the HTML goes out without them. */
const DATA_BUDGET_MS = 400;

/** Waits for `work` at most `ms` (what is not back by then is left to the browser). */
async function withinBudget(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}

/**
 * Runs `fill` against a fresh query client within the data budget and returns what arrived,
 * dehydrated (a query still on its way or failed is left for the browser, never sent half-done),
 * with the client for loaders that decide on the data (a redirect).
 */
export async function prefetchQueries(
  fill: (queryClient: QueryClient) => Promise<unknown>,
  onIncomplete?: () => void,
): Promise<{ data: QueriesData; queryClient: QueryClient }> {
  const queryClient = createQueryClient({ retry: false });
  let settled = false;
  await withinBudget(
    fill(queryClient).then(() => (settled = true)),
    DATA_BUDGET_MS,
  );
  const queries = dehydrate(queryClient);
  if (!settled || queries.queries.some((query) => query.state.status !== 'success')) onIncomplete?.();
  return { data: { queries }, queryClient };
}

/**
 * A route loader that only runs the page's queries (`fill`) for its first HTML: the common case.
 */
export function queriesLoader(
  fill: (
    queryClient: QueryClient,
    args: { params: Record<string, string | undefined>; url: URL },
  ) => Promise<unknown>,
) {
  return async ({ params, request, context }: LoaderFunctionArgs<PageContext>): Promise<QueriesData> => {
    const url = new URL(request.url);
    const { data } = await prefetchQueries(
      (queryClient) => fill(queryClient, { params, url }),
      context.markIncomplete,
    );
    return data;
  };
}

/** A route's clientLoader: on navigations inside the app its queries fetch for themselves. */
export async function clientData(): Promise<QueriesData> {
  return Promise.resolve({});
}

/**
 * A route whose data lives in TanStack Query asks the server again only after a form was
 * submitted (an action may have changed it), not for a new search string (its queries refetch by
 * key): the default otherwise.
 */
export function revalidateAfterSubmit({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod !== undefined && defaultShouldRevalidate;
}

/** The most routes a URL matches (the root, an area's layout, its page), with room for one more. */
const MAX_DEPTH = 4;

/**
 * Every matched route's dehydrated queries, each in a HydrationBoundary of its own, nested to a
 * fixed depth: the tree keeps its shape from one page to the next (nothing remounts), and a
 * boundary hydrates again only when its route's loader data is a new object.
 */
export function LoaderQueries({ children }: { children: ReactNode }) {
  const matches = useMatches();
  let tree = children;
  for (let depth = MAX_DEPTH - 1; depth >= 0; depth--) {
    const state = (matches[depth]?.data as QueriesData | undefined)?.queries;
    tree = <HydrationBoundary state={state}>{tree}</HydrationBoundary>;
  }
  return tree;
}
