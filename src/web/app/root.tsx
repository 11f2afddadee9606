import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from 'react-router';
import type { PageContext } from '#common/page-context';
import { DemoLedgerBanner } from '#web/components/demo-ledger-banner';
import { ConsentFlagsProvider, consentFlagsFromCookies } from '#web/features/consent/hooks/use-stored-flag';
import { markHydrated } from '#web/lib/after-hydration';
import { meQueryOptions } from '#web/lib/current-user';
import { createQueryClient, queryClient as browserQueryClient } from '#web/lib/query-client';
import { AreaErrorBoundary, AreaError } from './error-boundaries';
import { NotFoundContent } from './layouts/not-found-content';
import { LoaderQueries, prefetchQueries, revalidateAfterSubmit } from './route-data';
import { useNonce } from '#web/lib/nonce';
import { ShopNameProvider } from '#web/lib/shop-name';
import { DEFAULT_SHOP_NAME } from '#common/shop';
import fontHref from './fonts/inter-core-wght-normal.woff2?url';
import stylesHref from './styles.css?url';

const DESCRIPTION =
  'Aelo: pre-loved, authenticated activewear for women and men. Pay by card, SOL or the AELO token and share in the rewards.';

export const links: LinksFunction = () => [
  // The face every page uses first, cut to the characters the shop writes (scripts/subset-font.mjs).
  { rel: 'preload', href: fontHref, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

/**
 * zod compiles a fast object parser with `new Function` when it may, and probes for that as each
 * object schema is made; the shop's CSP forbids eval, so the probe is a reported CSP violation.
 * Jitless (zod's documented switch, on the global config object zod reads) skips the probe. Set by
 * an inline script before any module runs: React Router evaluates the route modules, and so the
 * schemas they make, before entry.client.
 */
const ZOD_JITLESS = '(globalThis.__zod_globalConfig??={}).jitless=true;';

/** The shop's description; each page sets its own title (components/page-title.tsx). */
export const meta: MetaFunction = () => [{ name: 'description', content: DESCRIPTION }];

/** Every page: who is signed in (the header), the consent prompts still to answer, the demo banner. */
export async function loader({ request, context }: LoaderFunctionArgs<PageContext>) {
  const { data: queries } = await prefetchQueries(
    (queryClient) => queryClient.prefetchQuery(meQueryOptions()),
    context.markIncomplete,
  );
  return data({
    ...queries,
    demoLedger: context.demoLedger,
    shopName: context.shopName,
    publicUrl: context.publicUrl,
    consentFlags: consentFlagsFromCookies(request.headers.get('cookie')),
  });
}

export const shouldRevalidate = revalidateAfterSubmit;

type RootData = Awaited<ReturnType<typeof loader>>['data'];

/** The document around every page, its error page included. */
export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<RootData>('root');
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1.0, viewport-fit=cover" />
        <meta name="theme-color" content="#ffffff" />
        <meta name="color-scheme" content="light" />
        {/* The browser hides a nonce from the DOM once parsed: hydration finds it empty. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: ZOD_JITLESS }} />
        {/* The one stylesheet, with a precedence: React then writes it ahead of the scripts' 20-odd
            modulepreload links (a plain <link> would come after them), so on a slow network the
            page's first paint does not wait behind the code. */}
        <link rel="stylesheet" href={stylesHref} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body>
        {root?.demoLedger ? <DemoLedgerBanner /> : null}
        <ShopNameProvider value={root?.shopName ?? DEFAULT_SHOP_NAME}>{children}</ShopNameProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** A thin bar at the top while the next page's code or data loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state !== 'loading') return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      className="fixed inset-x-0 top-0 z-[60] h-0.5 overflow-hidden bg-rose-100"
    >
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-rose-600" />
    </div>
  );
}

/**
 * Browser-only state (the persisted cart and checkout) is read once the server's HTML has
 * hydrated: this effect runs before the pages' own (React runs a parent's children's effects in
 * order, and this comes first).
 */
function HydrationMark() {
  useEffect(markHydrated, []);
  return null;
}

export default function App({ loaderData }: { loaderData: RootData }) {
  // One cache per request on the server; the browser's one cache for the whole visit.
  const [queryClient] = useState(() =>
    import.meta.env.SSR ? createQueryClient({ retry: false }) : browserQueryClient,
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ConsentFlagsProvider flags={loaderData.consentFlags}>
        <LoaderQueries>
          <HydrationMark />
          <NavigationProgress />
          <AreaErrorBoundary area="app">
            <Outlet />
          </AreaErrorBoundary>
        </LoaderQueries>
      </ConsentFlagsProvider>
    </QueryClientProvider>
  );
}

/** What a loader's failure (or a layout's) shows: the page not found, or the last-resort error page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="flex min-h-dvh flex-col">
      {notFound ? (
        <NotFoundContent backTo="/" backLabel="Back to Home" />
      ) : (
        <AreaError area="app" error={error} />
      )}
    </main>
  );
}
