import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context, Handler } from 'hono';
import { SERVICE_UNAVAILABLE_MESSAGE, type ErrorBody } from '#common/errors';
import { GUEST_ORDER_ROUTE, isSpaRoute, routeMatcher } from '#common/routes';
import { isDatabaseUnavailable } from '#server/db/errors';
import type { AppDeps } from '#server/deps';
import { AppError, SERVICE_RETRY_AFTER_SECONDS } from '#server/lib/app-error';
import type { AppEnv } from '#server/lib/hono-env';
import { injectProductHead } from '#server/modules/catalog/seo';
import { PageRenderer } from './page-renderer';

export interface PagesOptions {
  webDir: string;
  ssrEntry: string;
  /** The app itself: a page's queries are answered in process with the visitor's cookies. */
  apiFetch: (request: Request, c: Context<AppEnv>) => Promise<Response>;
}

const isGuestOrderPage = routeMatcher(GUEST_ORDER_ROUTE);

/**
 * Every page URL: storefront pages rendered on the server (PageRenderer), admin and account pages
 * as the client shell. A product URL gets its own head (title, description, structured data) and
 * 404 when the product does not exist; a path that is no page answers 404 with the not-found page.
 */
export function pagesHandler(deps: AppDeps, options: PagesOptions): Handler<AppEnv> {
  const renderer = new PageRenderer(options.webDir, options.ssrEntry, deps.logger);
  let indexHtml: string | undefined;
  const readIndex = () => {
    if (indexHtml !== undefined) return indexHtml;
    const file = path.join(options.webDir, 'index.html');
    if (!existsSync(file)) return undefined;
    indexHtml = readFileSync(file, 'utf8');
    return indexHtml;
  };

  return async (c) => {
    const template = readIndex();
    if (template === undefined) return c.text('The web app is not built yet: run `npm run build`.', 503);
    // A guest order's page carries the order's private details in its HTML, as its API answer
    // does: kept out of every cache like that answer. Other pages may be kept if revalidated.
    c.header('Cache-Control', isGuestOrderPage(c.req.path) ? 'no-store' : 'no-cache');
    let html = template;
    let status: 200 | 404 = isSpaRoute(c.req.path) ? 200 : 404;
    const productId = /^\/products\/([^/]+)\/?$/.exec(c.req.path)?.[1];
    if (productId) {
      let product;
      try {
        product = await deps.catalog.getProduct(safeDecode(productId));
      } catch (err) {
        if (isDatabaseUnavailable(err)) return unavailablePage(c);
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
      if (product) html = injectProductHead(template, product, deps.config.publicUrl);
      else status = 404;
    }
    // A path that is not valid percent-encoding is no page: the shell and its not-found page.
    if (!isDecodable(c.req.path)) return c.html(html, status);
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
      c.get('secureHeadersNonce'),
    );
    if (databaseDown) {
      if (page && 'body' in page) await page.body.cancel();
      return unavailablePage(c);
    }
    if (!page) return c.html(html, status);
    if ('redirect' in page) return c.redirect(page.redirect, 302);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    return c.body(page.body, status);
  };
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
