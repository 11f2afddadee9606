import {
  dehydrate,
  QueryClientProvider,
  type DehydratedState,
  type QueryClient,
} from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppRoutes, loadRouteModules, matchPageFiles, matchRouteIds } from './app/router';
import { preloadConsentPrompts } from './features/consent/components/consent-prompts';
import { ConsentFlagsProvider, consentFlagsFromCookies } from './features/consent/hooks/use-stored-flag';
import { paths } from './config/paths';
import type { AdminCheckReason } from './features/auth/components/require-admin';
import { meQueryOptions } from './lib/current-user';
import { shopInfoQueryOptions } from './lib/shop-info';
import { createQueryClient } from './lib/query-client';

export { setApiTransport } from './lib/api-client';

/**
 * The storefront's server renderer, built by `vite build --ssr` into dist/ssr and called by the
 * server's pages module for every storefront URL and, for a signed-in customer, the account pages
 * (admin pages stay client-rendered).
 * It runs the page's queries (lib/api-client answers them in process), renders the route with
 * React's streaming renderer, and returns the stream with the state the browser hydrates from.
 */
export interface SsrState {
  queries: DehydratedState;
}

export type RenderResult =
  | { kind: 'client' }
  | { kind: 'redirect'; location: string }
  | { kind: 'page'; stream: ReadableStream<Uint8Array>; state: SsrState; pageFiles: string[] };

export interface RenderOptions {
  /** CSP nonce for the scripts React streams in (Suspense boundaries that finish later). */
  nonce?: string;
  /** How long the page's queries may take; what is not back by then loads in the browser. */
  dataBudgetMs: number;
  onError: (error: unknown) => void;
}

/**
 * Pages under the storefront layout, the admin sign-in page and the account area (for its signed-in
 * customer: see accountGuard) are rendered here; the back office behind its sign-in gets the
 * client shell.
 */
const SERVER_RENDERED_ROUTES = ['storefront', 'admin/login', 'account/layout'];

export function isServerRendered(pathname: string): boolean {
  return matchRouteIds(pathname).some((id) => SERVER_RENDERED_ROUTES.includes(id));
}

/**
 * The areas behind a sign-in, and where the server sends a visitor without a
 * session on a full load: straight to the sign-in page, instead of the shell that would ask for the
 * session and then go there (what the browser still does on a navigation inside the app).
 */
const SIGN_IN_FOR: Record<string, string> = {
  'admin/layout': paths.admin.login.getHref('unauthenticated' satisfies AdminCheckReason),
};

/**
 * The account area's answer once the session query is settled: undefined to render the page for
 * its customer; a redirect to the sign-in page for a visitor the session API says is nobody; the
 * client shell when it could not tell (failed or late: the browser's guard then decides, as
 * before). `/profile` itself answers with the orders page's address (the browser's <Navigate>).
 */
function accountGuard(pathname: string, queryClient: QueryClient): RenderResult | undefined {
  if (!matchRouteIds(pathname).includes('account/layout')) return undefined;
  const me = queryClient.getQueryData(meQueryOptions().queryKey);
  if (!me) return { kind: 'client' };
  if (!me.user) return { kind: 'redirect', location: paths.login.getHref() };
  if (pathname.replace(/\/+$/, '') === paths.profile.root.getHref())
    return { kind: 'redirect', location: paths.profile.orders.getHref() };
  return undefined;
}

/** Waits for `work` at most `ms` (what is not back by then is left to the browser). */
async function withinBudget(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A redirect to the area's sign-in page for a visitor without a session; the client shell otherwise. */
async function guardClientPage(pathname: string, options: RenderOptions): Promise<RenderResult> {
  const signIn = matchRouteIds(pathname)
    .map((id) => SIGN_IN_FOR[id])
    .find(Boolean);
  if (!signIn) return { kind: 'client' };
  const queryClient = createQueryClient({ retry: false });
  await withinBudget(queryClient.prefetchQuery(meQueryOptions()), options.dataBudgetMs);
  const me = queryClient.getQueryData(meQueryOptions().queryKey);
  // Only a session check that answered "nobody": a failed or slow one is the browser's to handle.
  return me && !me.user ? { kind: 'redirect', location: signIn } : { kind: 'client' };
}

/**
 * React's streaming renderer, handed on once every Suspense boundary is complete (allReady): the
 * HTML reads whole without JavaScript (crawlers, link previews, a failed script) and needs none of
 * React's inline swap scripts; it still goes out chunk by chunk. A web stream from React itself: a
 * shopper who leaves while it is being sent cancels it and React stops (a Node stream turned into
 * a web stream, as before, threw on the next chunk after a cancel, and the throw ended the server).
 */
async function renderWhole(element: ReactNode, options: RenderOptions): Promise<ReadableStream<Uint8Array>> {
  const stream = await renderToReadableStream(element, {
    nonce: options.nonce,
    // Never outline a large finished boundary (the product modal) into a later, script-swapped chunk.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: options.onError,
  });
  await stream.allReady;
  return stream;
}

export async function render(request: Request, options: RenderOptions): Promise<RenderResult> {
  const url = new URL(request.url);
  if (!isServerRendered(url.pathname)) return guardClientPage(url.pathname, options);
  const consentFlags = consentFlagsFromCookies(request.headers.get('cookie'));
  const [matches] = await Promise.all([loadRouteModules(url.pathname), preloadConsentPrompts(consentFlags)]);

  const queryClient = createQueryClient({ retry: false });
  const prefetches: Promise<unknown>[] = [queryClient.prefetchQuery(meQueryOptions())];
  // The account pages show the shop's token (the orders' discounts, the wallet's chain). Asked here
  // rather than by their page modules: an account chunk importing shopInfoQueryOptions would make
  // it one more export of the entry chunk, which the landing page loads.
  if (matchRouteIds(url.pathname).includes('account/layout'))
    prefetches.push(queryClient.prefetchQuery(shopInfoQueryOptions()));
  for (const { handle, params } of matches) {
    if (handle?.prefetch) prefetches.push(handle.prefetch(queryClient, { params, url }));
    if (handle?.preload) prefetches.push(handle.preload({ params }));
  }
  await withinBudget(Promise.allSettled(prefetches), options.dataBudgetMs);
  const guarded = accountGuard(url.pathname, queryClient);
  if (guarded) return guarded;
  for (const { handle } of matches) {
    const location = handle?.redirect?.(queryClient, { url });
    if (location) return { kind: 'redirect', location };
  }
  // Only what has arrived: a query still on its way is left for the browser (never sent half-done).
  const queries = dehydrate(queryClient);

  const stream = await renderWhole(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ConsentFlagsProvider flags={consentFlags}>
          <StaticRouter location={url.pathname + url.search + url.hash}>
            <AppRoutes />
          </StaticRouter>
        </ConsentFlagsProvider>
      </QueryClientProvider>
    </StrictMode>,
    options,
  );
  return {
    kind: 'page',
    stream,
    state: { queries },
    pageFiles: matchPageFiles(url.pathname),
  };
}
