import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context, Handler } from 'hono';
import { SERVICE_UNAVAILABLE_MESSAGE, type ErrorBody } from '#common/errors';
import { GUEST_ORDER_ROUTE, isSpaRoute, routeMatcher } from '#common/routes';
import { isDatabaseUnavailable } from '#server/db/errors';
import type { AppDeps } from '#server/deps';
import { AppError, SERVICE_RETRY_AFTER_SECONDS } from '#server/lib/app-error';
import type { AppEnv } from '#server/lib/hono-env';
import { chooseEncoding } from '#server/lib/prepared-body';
import { PreparedPage } from '#server/lib/prepared-page';
import { injectProductHead } from '#server/modules/catalog/seo';
import { withDemoLedgerBanner } from './demo-ledger-banner';
import { createPageCache, NONCE_PLACEHOLDER } from './page-cache';
import { PageRenderer } from './page-renderer';

export interface PagesOptions {
  webDir: string;
  ssrEntry: string;
  /** The app itself: a page's queries are answered in process with the visitor's cookies. */
  apiFetch: (request: Request, c: Context<AppEnv>) => Promise<Response>;
}

const isGuestOrderPage = routeMatcher(GUEST_ORDER_ROUTE);
/** The account area: rendered on the server with the signed-in customer's data. */
const isAccountPage = (pathname: string) => ['/profile', '/profile/*'].some((p) => routeMatcher(p)(pathname));

/**
 * Every page URL: storefront pages rendered on the server (PageRenderer), admin and account pages
 * as the client shell. A product URL gets its own head (title, description, structured data) and
 * 404 when the product does not exist; a path that is no page answers 404 with the not-found page.
 * An anonymous visitor's storefront page comes from the page cache when it can (page-cache.ts).
 */
export function pagesHandler(deps: AppDeps, options: PagesOptions): Handler<AppEnv> {
  const renderer = new PageRenderer(options.webDir, options.ssrEntry, deps.logger);
  const cache = createPageCache(deps.events);
  let indexHtml: string | undefined;
  const readIndex = () => {
    if (indexHtml !== undefined) return indexHtml;
    const file = path.join(options.webDir, 'index.html');
    if (!existsSync(file)) return undefined;
    indexHtml = readFileSync(file, 'utf8');
    // While the local demo ledger runs, every page says its payments are not real.
    if (deps.config.solana.localLedger) indexHtml = withDemoLedgerBanner(indexHtml);
    return indexHtml;
  };

  /** The page for this request, rendered with `nonce` as its CSP nonce. */
  const renderPage = async (
    c: Context<AppEnv>,
    template: string,
    nonce: string | undefined,
  ): Promise<Outcome> => {
    let html = template;
    let status: 200 | 404 = isSpaRoute(c.req.path) ? 200 : 404;
    const productId = /^\/products\/([^/]+)\/?$/.exec(c.req.path)?.[1];
    if (productId) {
      let product;
      try {
        product = await deps.catalog.getProduct(safeDecode(productId));
      } catch (err) {
        if (isDatabaseUnavailable(err)) return { kind: 'unavailable' };
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
      if (product) html = injectProductHead(template, product, deps.config.publicUrl);
      else status = 404;
    }
    // A path that is not valid percent-encoding is no page: the shell and its not-found page.
    if (!isDecodable(c.req.path)) return { kind: 'html', html, status };
    // A page whose data could not be read because the database is out of reach is not sent as if
    // it were the page (an empty shop, a product not found): the visitor gets the 503 page.
    let databaseDown = false;
    const page = await renderer.render(
      c.req.raw,
      html,
      async (request) => {
        const res = await options.apiFetch(request, c);
        if (res.status === 503 && (await isServiceUnavailable(res))) databaseDown = true;
        return res;
      },
      nonce,
    );
    if (databaseDown) {
      if (page && 'body' in page) await page.body.cancel();
      return { kind: 'unavailable' };
    }
    if (!page) return { kind: 'html', html, status };
    if ('redirect' in page) return { kind: 'redirect', location: page.redirect };
    return { kind: 'page', body: page.body, status, whole: page.whole };
  };

  const send = (c: Context<AppEnv>, outcome: Outcome) => {
    switch (outcome.kind) {
      case 'unavailable':
        return unavailablePage(c);
      case 'redirect':
        return c.redirect(outcome.location, 302);
      case 'html':
        return c.html(outcome.html, outcome.status);
      case 'page':
        c.header('Content-Type', 'text/html; charset=UTF-8');
        return c.body(outcome.body, outcome.status);
    }
  };

  return async (c) => {
    const template = readIndex();
    if (template === undefined) return c.text('The web app is not built yet: run `npm run build`.', 503);
    // A guest order's page and an account page carry a customer's private details in their HTML,
    // as their API answers do: kept out of every cache like those answers. Other pages may be kept
    // if revalidated.
    const personal = isGuestOrderPage(c.req.path) || isAccountPage(c.req.path);
    c.header('Cache-Control', personal ? 'no-store' : 'no-cache');
    const nonce = c.get('secureHeadersNonce');
    const key = nonce ? cache.keyOf(c.req.raw) : undefined;
    if (!nonce || key === undefined) return send(c, await renderPage(c, template, nonce));

    // Rendered with the placeholder nonce and read whole (React has finished the page before its
    // first byte, see renderWhole): kept when it is the page every such visitor gets, else handed
    // to whoever waited for this render, as it is.
    const load = async (): Promise<PreparedPage> => {
      const outcome = await renderPage(c, template, NONCE_PLACEHOLDER);
      if (outcome.kind !== 'page') throw new NotCached(outcome);
      const html = await new Response(outcome.body).text();
      if (outcome.status !== 200 || !outcome.whole()) {
        throw new NotCached({ kind: 'html', html, status: outcome.status });
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
        outcome.kind === 'html'
          ? { ...outcome, html: outcome.html.replaceAll(NONCE_PLACEHOLDER, nonce) }
          : outcome,
      );
    }
    // The forms compressed once, when made (the first responses after a render go without waiting:
    // uncompressed here, compressed on the way by the compress middleware as any page).
    const encoding = chooseEncoding(c.req.header('accept-encoding'), page.size);
    const encoded = encoding === 'identity' ? undefined : page.encoded(encoding, nonce);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    c.header('Vary', 'Accept-Encoding');
    if (encoded) c.header('Content-Encoding', encoding);
    const bytes = encoded ?? page.bytes(nonce);
    c.header('Content-Length', String(bytes.length));
    return c.body(bytes, 200);
  };
}

/** What a page request gets: a rendered page, the shell, a redirect or the 503 page. */
type Outcome =
  | { kind: 'page'; body: ReadableStream<Uint8Array>; status: 200 | 404; whole: () => boolean }
  | { kind: 'html'; html: string; status: 200 | 404 }
  | { kind: 'redirect'; location: string }
  | { kind: 'unavailable' };

/** A render that is not kept (see page-cache.ts), with what it gave, read whole. */
class NotCached extends Error {
  constructor(readonly outcome: Exclude<Outcome, { kind: 'page' }>) {
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

function isDecodable(pathname: string): boolean {
  try {
    decodeURI(pathname);
    return true;
  } catch {
    return false;
  }
}

/** Percent-decoded, or the raw text when the encoding is malformed (it then matches no product). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
