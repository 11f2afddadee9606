import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'hono';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { SERVICE_UNAVAILABLE_MESSAGE, type ErrorBody } from '#common/errors';
import type { PageContext } from '#common/page-context';
import { GUEST_ORDER_ROUTE, routeMatcher } from '#common/routes';
import { SERVICE_RETRY_AFTER_SECONDS } from '#server/lib/app-error';
import type { AppEnv } from '#server/lib/hono-env';
import { PreparedPage } from '#server/lib/prepared-page';
import { createPageCache, NONCE_PLACEHOLDER } from './page-cache';
import type { Config } from '#server/config';
import type { EventHub } from '#server/modules/events/event-hub';

/** What these routes use of the app's services (deps.ts builds them). */
export interface PagesRoutesDeps {
  config: Config;
  events: EventHub;
}

export interface PagesOptions {
  /** React Router's build directory (dist/web): its server build is server/index.js. */
  buildDir: string;
  /**
   * The web app's server build, when it does not come from `buildDir` (Vite's dev server, which
   * builds it again after every change: asked for each request).
   */
  loadBuild?: () => Promise<ServerBuild>;
  /** The app itself: a page's queries and actions are answered in process as the visitor. */
  apiFetch: (request: Request, c: Context<AppEnv>) => Promise<Response>;
}

type ApiFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** The part of the server build's entry (src/web/app/entry.server.tsx) the server calls besides React Router. */
interface PageEntry {
  setApiTransport?: (transport: ApiFetch) => void;
}

/** Headers the in-process API calls carry over from the visitor's request. */
const FORWARDED_HEADERS = [
  'cookie',
  'x-forwarded-for',
  'user-agent',
  'accept-language',
  'origin',
  'sec-fetch-site',
  // Trusted only from TRUSTED_PROXIES (lib/client-ip.ts), as on the visitor's own request.
  'x-forwarded-proto',
  'x-forwarded-host',
];

const isGuestOrderPage = routeMatcher(GUEST_ORDER_ROUTE);
/** The account area: rendered on the server with the signed-in customer's data. */
const isAccountPage = (pathname: string) => ['/profile', '/profile/*'].some((p) => routeMatcher(p)(pathname));

/**
 * Every page URL, answered by the web app's React Router request handler (its server build, made
 * by `npm run build`): the page rendered on the server, a loader's redirect, an action's answer,
 * or a navigation's data (`*.data`). A page's queries and actions reach the API in process with
 * the visitor's cookies (setApiTransport, fetchApi). An anonymous visitor's storefront page comes
 * from the page cache when it can (page-cache.ts); a page whose data could not be read because the
 * database is out of reach is the 503 page instead.
 */
export function pagesHandler(
  deps: PagesRoutesDeps,
  options: PagesOptions,
): (c: Context<AppEnv>) => Promise<Response> {
  const cache = createPageCache(deps.events);
  const requestScope = new AsyncLocalStorage<ApiFetch>();
  const useBuild = (build: ServerBuild) => {
    (build.entry.module as PageEntry).setApiTransport?.((url, init) => {
      const fetchApi = requestScope.getStore();
      if (!fetchApi) return Promise.reject(new Error('API call outside a page request'));
      return fetchApi(url, init);
    });
    return build;
  };
  // The built handler, loaded once. A build not there yet (a request while `npm run build` runs)
  // is looked for again on the next request rather than remembered as missing.
  let handler: Promise<ReturnType<typeof createRequestHandler>> | undefined;
  const loadHandler = () => {
    const { loadBuild } = options;
    if (loadBuild)
      return Promise.resolve(createRequestHandler(async () => useBuild(await loadBuild()), 'development'));
    if (handler) return handler;
    const file = path.join(options.buildDir, 'server', 'index.js');
    if (!existsSync(file)) return Promise.resolve(null);
    handler = import(pathToFileURL(file).href).then((build: ServerBuild) =>
      createRequestHandler(useBuild(build), 'production'),
    );
    handler.catch(() => (handler = undefined));
    return handler;
  };

  /** The handler's answer for this request, its scripts carrying `nonce`. */
  const renderPage = async (c: Context<AppEnv>, nonce: string | undefined): Promise<Outcome> => {
    const handle = await loadHandler();
    if (!handle) return { kind: 'unbuilt' };
    const request = ownOrigin(atOwnOrigin(c.req.raw, c.var.requestOrigin));
    const forwarded = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) forwarded.set(name, value);
    }
    let incomplete = false;
    let databaseDown = false;
    const fetchApi: ApiFetch = async (url, init = {}) => {
      const target = new URL(url, 'http://in-process');
      const headers = new Headers(init.headers);
      forwarded.forEach((value, name) => headers.set(name, value));
      const res = await options.apiFetch(
        new Request(new URL(target.pathname + target.search, c.req.url), { ...init, headers }),
        c,
      );
      if (res.status === 503 && (await isServiceUnavailable(res))) databaseDown = true;
      return res;
    };
    const context: PageContext = {
      nonce,
      publicUrl: deps.config.publicUrl,
      demoLedger: deps.config.solana.localLedger,
      shopName: deps.config.shopName,
      fetchApi,
      markIncomplete: () => (incomplete = true),
    };
    const response = await requestScope.run(fetchApi, () => handle(request, context));
    if (databaseDown) {
      await response.body?.cancel();
      return { kind: 'unavailable' };
    }
    return { kind: 'response', response, whole: () => !incomplete };
  };

  return async (c) => {
    // A guest order's page and an account page carry a customer's private details in their HTML,
    // as their API answers do: kept out of every cache like those answers. Other pages may be kept
    // if revalidated.
    const personal = isGuestOrderPage(c.req.path) || isAccountPage(c.req.path);
    const cacheControl = personal ? 'no-store' : 'no-cache';
    const nonce = c.get('secureHeadersNonce');
    const key = nonce ? cache.keyOf(c.req.raw) : undefined;
    if (!nonce || key === undefined) return send(c, await renderPage(c, nonce), cacheControl);

    // Rendered with the placeholder nonce and read whole (React has finished the page before its
    // first byte, entry.server.tsx): kept when it is the page every such visitor gets, else handed
    // to whoever waited for this render, as it is.
    const load = async (): Promise<PreparedPage> => {
      const outcome = await renderPage(c, NONCE_PLACEHOLDER);
      if (outcome.kind !== 'response') throw new NotCached(outcome);
      const { response } = outcome;
      const html = await response.text();
      const isPage = response.status === 200 && response.headers.get('content-type')?.startsWith('text/html');
      if (!isPage || !outcome.whole() || response.headers.has('set-cookie')) {
        throw new NotCached({ kind: 'text', html, status: response.status, headers: response.headers });
      }
      return new PreparedPage(html, NONCE_PLACEHOLDER);
    };
    let page: PreparedPage;
    try {
      page = await cache.get(key, load);
    } catch (err) {
      if (!(err instanceof NotCached)) throw err;
      const { outcome } = err;
      return send(
        c,
        outcome.kind === 'text'
          ? { ...outcome, html: outcome.html.replaceAll(NONCE_PLACEHOLDER, nonce) }
          : outcome,
        cacheControl,
      );
    }
    // The forms compressed once, when made (the first responses after a render go without waiting:
    // uncompressed here, compressed on the way by the compress middleware as any page).
    const encoding = page.encodingFor(c.req.header('accept-encoding'));
    const encoded = encoding === 'identity' ? undefined : page.encoded(encoding, nonce);
    c.header('Cache-Control', cacheControl);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    c.header('Vary', 'Accept-Encoding');
    if (encoded) c.header('Content-Encoding', encoding);
    const bytes = encoded ?? page.bytes(nonce);
    c.header('Content-Length', String(bytes.length));
    return c.body(bytes, 200);
  };
}

/**
 * The request at the address the visitor used (`c.var.requestOrigin`: behind a TLS-terminating
 * proxy in TRUSTED_PROXIES, https and the public host from X-Forwarded-Proto/-Host), not the one
 * the proxy connected to. React Router refuses an action whose Origin is not its request's origin,
 * so behind https every route form (sign-up, sign-in, contact) was a 400 "Bad Request".
 */
function atOwnOrigin(request: Request, requestOrigin: string | undefined): Request {
  if (!requestOrigin) return request;
  const url = new URL(request.url);
  if (url.origin === requestOrigin) return request;
  const seen = new URL(url.pathname + url.search, requestOrigin);
  return new Request(seen, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Pages are sent with `Referrer-Policy: no-referrer`, under which a browser's form post says
 * `Origin: null`. pageFormProtection (src/server/lib/csrf.ts) has accepted such a post only with
 * `Sec-Fetch-Site: same-origin`, so it comes from one of the shop's pages: React Router's check of
 * an action's origin, and the API's behind it, then see the page's own origin.
 */
function ownOrigin(request: Request): Request {
  if (request.method !== 'POST' || request.headers.get('origin') !== 'null') return request;
  if (request.headers.get('sec-fetch-site') !== 'same-origin') return request;
  const headers = new Headers(request.headers);
  headers.set('origin', new URL(request.url).origin);
  return new Request(request.url, {
    method: request.method,
    headers,
    body: request.body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}

/** What a page request gets: the handler's response (or its text, read whole), the 503 page, or nothing built. */
type Outcome =
  | { kind: 'response'; response: Response; whole: () => boolean }
  | { kind: 'text'; html: string; status: number; headers: Headers }
  | { kind: 'unavailable' }
  | { kind: 'unbuilt' };

function send(c: Context<AppEnv>, outcome: Outcome, cacheControl: string): Response {
  switch (outcome.kind) {
    case 'unbuilt':
      return c.text('The web app is not built yet: run `npm run build`.', 503);
    case 'unavailable':
      return unavailablePage(c);
    case 'response':
      return withHeaders(
        c,
        outcome.response.body,
        outcome.response.status,
        outcome.response.headers,
        cacheControl,
      );
    case 'text':
      return withHeaders(c, outcome.html, outcome.status, outcome.headers, cacheControl);
  }
}

/** The handler's response through Hono's context, so the middleware's headers (security, request id) stay. */
function withHeaders(
  c: Context<AppEnv>,
  body: ReadableStream<Uint8Array> | string | null,
  status: number,
  headers: Headers,
  cacheControl: string,
): Response {
  headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    c.header(name, value);
  });
  for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
  if (!headers.has('cache-control')) c.header('Cache-Control', cacheControl);
  const code = status as 200;
  if (body === null) return c.body(null, code);
  return typeof body === 'string' ? c.body(body, code) : c.body(body, code);
}

/** A render that is not kept (see page-cache.ts), with what it gave, read whole. */
class NotCached extends Error {
  constructor(readonly outcome: Exclude<Outcome, { kind: 'response' }>) {
    super('page not cached');
  }
}

async function isServiceUnavailable(res: Response): Promise<boolean> {
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as ErrorBody | null;
  return body?.error?.code === 'SERVICE_UNAVAILABLE';
}

/**
 * 503 while the database is out of reach: a small page of its own (the app's pages need their
 * data), which tries again by itself after Retry-After.
 */
function unavailablePage(c: Context<AppEnv>) {
  c.header('Cache-Control', 'no-store');
  c.header('Retry-After', String(SERVICE_RETRY_AFTER_SECONDS));
  return c.html(
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta http-equiv="refresh" content="${SERVICE_RETRY_AFTER_SECONDS}" />
    <meta name="robots" content="noindex" />
    <title>Briefly unavailable</title>
  </head>
  <body style="font-family: system-ui, sans-serif; margin: 0; color: #1c1917">
    <main style="max-width: 32rem; margin: 20vh auto; padding: 0 1.5rem; text-align: center">
      <h1 style="font-size: 1.5rem; font-weight: 600">Briefly unavailable</h1>
      <p>${SERVICE_UNAVAILABLE_MESSAGE}</p>
      <p><a href="" style="color: #be123c">Try again</a></p>
    </main>
  </body>
</html>
`,
    503,
  );
}
